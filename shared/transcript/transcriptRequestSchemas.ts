import { z } from 'zod';

/** A project folder name under `projects/`: one name, no separators, no dot segments, no NUL. */
const slugSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((s) => !/[/\\\0]/.test(s) && s !== '.' && s !== '..', 'must be a single folder name');

/** Session ids are UUIDs (Claude Code's own rule for session files), so they can never name another path. */
export const sessionIdSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a session id (UUID)');

const sessionRefShape = {
  configRoot: z.string().min(1).max(4096),
  slug: slugSchema,
  sessionId: sessionIdSchema,
};

export const sessionRefSchema = z.strictObject(sessionRefShape);

export const transcriptViewSchema = z.strictObject({
  agentId: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\w.:-]+$/, 'must be an agent id')
    .nullable(),
  leafUuid: z.string().min(1).max(100).nullable(),
  showMeta: z.boolean(),
  showMetadata: z.boolean(),
});

/** Rows a page may ask for at once. */
export const MAX_PAGE_LIMIT = 500;

/** The transcript viewer's requests; spread into the contract's `requestSchemas`. All read, except the terminal setting. */
export const transcriptRequestSchemas = {
  openTranscript: {
    args: z.strictObject({ ...sessionRefShape, view: transcriptViewSchema, focusLine: z.number().int().positive().nullable() }),
    mutates: false,
  },
  readTranscriptPage: {
    args: z.strictObject({
      ...sessionRefShape,
      view: transcriptViewSchema,
      start: z.number().int().nonnegative(),
      limit: z.number().int().positive().max(MAX_PAGE_LIMIT),
    }),
    mutates: false,
  },
  findInTranscript: {
    args: z.strictObject({
      ...sessionRefShape,
      view: transcriptViewSchema,
      query: z.string().min(1).max(1000),
      limit: z.number().int().positive().max(1000),
    }),
    mutates: false,
  },
  readTranscriptUsage: { args: z.strictObject({ ...sessionRefShape, view: transcriptViewSchema }), mutates: false },
  readSessionMemory: { args: sessionRefSchema, mutates: false },
  /** A page of a tool's full output in the session's `tool-results/` folder (the transcript keeps a preview). */
  readToolOutput: {
    args: z.strictObject({
      ...sessionRefShape,
      fileName: z
        .string()
        .min(1)
        .max(255)
        .regex(/^[\w.-]+$/, 'must be a file name')
        .refine((name) => name !== '.' && name !== '..', 'must be a file name'),
      offset: z.number().int().nonnegative(),
    }),
    mutates: false,
  },
  exportTranscript: {
    args: z.strictObject({ ...sessionRefShape, format: z.enum(['markdown', 'html']), cursor: z.number().int().nonnegative() }),
    mutates: false,
  },
  /** Opens a terminal; it changes no file, and only the desktop shell can do it. */
  resumeSession: { args: z.strictObject({ ...sessionRefShape, fork: z.boolean() }), mutates: true },
  getTerminalSetting: { args: z.strictObject({}), mutates: false },
  setTerminalSetting: { args: z.strictObject({ command: z.string().max(4000) }), mutates: true },
} as const;
