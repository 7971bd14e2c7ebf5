import { z } from 'zod';

const count = z.number().int().nonnegative();
const frameSchema = z.tuple([count, count, count, count, count]);
const identitySchema = z.strictObject({ fileId: z.string(), size: count, mtimeNs: z.string(), mtimeMs: z.number() });
const metaSchema = z.strictObject({
  agentType: z.string().nullable(),
  description: z.string().nullable(),
  toolUseId: z.string().nullable(),
  parentAgentId: z.string().nullable(),
  spawnDepth: z.number().int().positive().nullable(),
});

const fileSchema = z.strictObject({
  path: z.string().min(1),
  configRoot: z.string().min(1),
  slug: z.string().min(1),
  sessionId: z.string().min(1),
  agentId: z.string().nullable(),
  layout: z.enum(['session', 'subagents-folder', 'sibling']),
  dataFile: z.string().regex(/^[0-9a-f]{24}\.\d+\.ccar$/),
  bytes: count,
  compressedBytes: count,
  frames: z.array(frameSchema),
  headStamp: z
    .string()
    .regex(/^(?:|\d+:[A-Za-z0-9_-]{43})$/)
    .optional(),
  /** What manifests kept before head stamps: the bytes as hex. */
  head: z
    .string()
    .regex(/^(?:[0-9a-f]{2})*$/)
    .optional(),
  tail: z.string(),
  lineStart: count,
  source: identitySchema,
  meta: metaSchema.nullable(),
  firstArchivedAt: z.string(),
  lastArchivedAt: z.string(),
  goneSince: z.string().nullable(),
  rewrites: count,
});

const backupSchema = z.strictObject({
  configRoot: z.string().min(1),
  sessionId: z.string().min(1),
  backupFileName: z.string().min(1),
  trackedPath: z.string(),
  dataFile: z.string().regex(/^[0-9a-f]{24}\.ccar$/),
  bytes: count,
  compressedBytes: count,
  frame: frameSchema,
  archivedAt: z.string(),
});

/** The archive's manifest as `writeManifest` saves it; anything else is not trusted (see `readManifest`). */
export const manifestSchema = z.strictObject({
  files: z.array(fileSchema),
  backups: z.array(backupSchema),
  released: z.array(z.strictObject({ path: z.string(), mtimeMs: z.number(), releasedAt: z.string() })),
});
