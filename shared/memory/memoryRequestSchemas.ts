/** The boundary schemas of the Memory review requests (spread into `requestSchemas` in shared/contract/requests.ts). */
import { z } from 'zod';
import type { ShellCapability } from '../contract/capabilities';
import { MEMORY_TYPES } from '../model/memory';

/** Slugs are single folder names under `projects/`: no separators, no dot segments, no NUL. */
const slugSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((s) => !/[/\\\0]/.test(s) && s !== '.' && s !== '..', 'must be a single folder name');

/** A project's memory folder, or an agent memory folder (matched against the engine's own list, never used blindly). */
export const memoryFolderRefSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('project'), configRoot: z.string().min(1).max(4096), slug: slugSchema }),
  z.strictObject({ kind: z.literal('agent'), dir: z.string().min(1).max(4096) }),
]);

/** A memory file relative to its folder: forward slashes, no dot segments, no NUL, `*.md`. */
export const memoryPathSchema = z
  .string()
  .min(4)
  .max(1024)
  .refine(
    (s) =>
      !/[\\\0]/.test(s) &&
      !s.startsWith('/') &&
      !/^[A-Za-z]:/.test(s) &&
      s.split('/').every((part) => part !== '' && part !== '.' && part !== '..'),
    'must be a path inside the memory folder',
  )
  .refine((s) => s.endsWith('.md'), 'must name a .md file');

const hashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 hash');
const fieldValueSchema = z.string().max(500);
/** Under the web shell's 1 MiB message limit with room for the rest of the request. */
const bodySchema = z.string().max(900_000);

const indexPathSchema = z.enum(['MEMORY.md', 'team/MEMORY.md']);
const lineSchema = z.number().int().min(1).max(100_000_000);
const oneLineValueSchema = fieldValueSchema.min(1).refine((s) => !/[\r\n]/.test(s), 'must be one line');

/** One cure for a finding (see shared/memory/fixes/memoryFix.ts); every path is checked again by the writer. */
export const memoryFixSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('add-pointer'), file: memoryPathSchema }),
  z.strictObject({ kind: z.literal('remove-pointer'), index: indexPathSchema, line: lineSchema, target: memoryPathSchema }),
  z.strictObject({
    kind: z.literal('retarget-pointer'),
    index: indexPathSchema,
    line: lineSchema,
    target: memoryPathSchema,
    to: memoryPathSchema,
  }),
  z.strictObject({ kind: z.literal('shorten-line'), index: indexPathSchema, line: lineSchema }),
  z.strictObject({ kind: z.literal('move-overflow'), index: indexPathSchema, into: memoryPathSchema.optional() }),
  z.strictObject({ kind: z.literal('trim-overflow'), index: indexPathSchema }),
  z.strictObject({ kind: z.literal('merge-duplicates'), keep: memoryPathSchema, drop: memoryPathSchema }),
  z.strictObject({ kind: z.literal('mask-secret'), file: memoryPathSchema, line: lineSchema }),
  z.strictObject({ kind: z.literal('remove-secret-line'), file: memoryPathSchema, line: lineSchema }),
  z.strictObject({
    kind: z.literal('add-frontmatter'),
    file: memoryPathSchema,
    name: oneLineValueSchema.optional(),
    description: oneLineValueSchema.optional(),
    type: z.enum(MEMORY_TYPES).optional(),
  }),
  z.strictObject({ kind: z.literal('fill-description'), file: memoryPathSchema, value: oneLineValueSchema.optional() }),
  z.strictObject({ kind: z.literal('fill-type'), file: memoryPathSchema, value: z.enum(MEMORY_TYPES).optional() }),
  z.strictObject({
    kind: z.literal('absolute-date'),
    file: memoryPathSchema,
    line: lineSchema,
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
      .optional(),
  }),
  z.strictObject({ kind: z.literal('prune'), file: memoryPathSchema }),
]);

/** A bulk fix covers a filtered list: a few thousand files at most. */
const MAX_FIXES = 5000;

export const memoryRequestSchemas = {
  getMemoryReview: { args: z.strictObject({ folder: memoryFolderRefSchema }), mutates: false },
  readMemoryFile: {
    args: z.strictObject({ folder: memoryFolderRefSchema, relativePath: memoryPathSchema, revealSecrets: z.boolean().optional() }),
    mutates: false,
    // Secrets are masked unless revealed, which only the desktop app does (the web shell never shows them).
    needs: (args: { readonly revealSecrets?: boolean }): ShellCapability | null => (args.revealSecrets === true ? 'revealSecrets' : null),
  },
  saveMemoryFile: {
    args: z.strictObject({
      folder: memoryFolderRefSchema,
      relativePath: memoryPathSchema,
      baseHash: hashSchema,
      fields: z
        .strictObject({
          name: fieldValueSchema.optional(),
          description: fieldValueSchema.optional(),
          type: z.enum(MEMORY_TYPES).optional(),
        })
        .optional(),
      body: bodySchema.optional(),
    }),
    mutates: true,
  },
  createMemoryFile: {
    args: z.strictObject({
      folder: memoryFolderRefSchema,
      scope: z.enum(['private', 'team']),
      fileName: memoryPathSchema,
      name: fieldValueSchema.min(1),
      description: fieldValueSchema.min(1),
      type: z.enum(MEMORY_TYPES),
      body: bodySchema,
    }),
    mutates: true,
  },
  renameMemoryFile: {
    args: z.strictObject({ folder: memoryFolderRefSchema, from: memoryPathSchema, to: memoryPathSchema, baseHash: hashSchema }),
    mutates: true,
  },
  pruneMemoryFile: {
    args: z.strictObject({ folder: memoryFolderRefSchema, relativePath: memoryPathSchema, baseHash: hashSchema }),
    mutates: true,
  },
  undoMemoryChange: { args: z.strictObject({ folder: memoryFolderRefSchema, changeSetId: z.uuid() }), mutates: true },
  planMemoryFix: {
    args: z.strictObject({ folder: memoryFolderRefSchema, fixes: z.array(memoryFixSchema).min(1).max(MAX_FIXES) }),
    mutates: false,
  },
  applyMemoryFix: {
    args: z.strictObject({
      folder: memoryFolderRefSchema,
      fixes: z.array(memoryFixSchema).min(1).max(MAX_FIXES),
      bases: z
        .array(z.strictObject({ path: memoryPathSchema, hash: hashSchema.nullable() }))
        .min(1)
        .max(MAX_FIXES * 2 + 2),
    }),
    mutates: true,
  },
} as const;
