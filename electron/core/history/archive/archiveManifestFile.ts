import { join } from 'node:path';
import { z } from 'zod';
import { readChecksummedJson, writeChecksummedJsonText } from '../../fs/checksummedJsonFile';
import { ARCHIVE_MANIFEST_FORMAT, type ArchiveManifest } from './archiveModel';

/** A manifest this large is not one the archive wrote (a million sessions would not reach it). */
const MAX_MANIFEST_BYTES = 1024 * 1024 * 1024;

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
  head: z.string(),
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

const manifestSchema = z.strictObject({
  files: z.array(fileSchema),
  backups: z.array(backupSchema),
  released: z.array(z.strictObject({ path: z.string(), mtimeMs: z.number(), releasedAt: z.string() })),
});

export function manifestPath(dir: string): string {
  return join(dir, 'manifest.json');
}

/**
 * The saved manifest, or null when there is none or it cannot be trusted (cut short, edited, another format): the
 * archive then rebuilds it from its data files rather than lose track of them.
 */
export async function readManifest(dir: string): Promise<ArchiveManifest | null> {
  const body = await readChecksummedJson(manifestPath(dir), ARCHIVE_MANIFEST_FORMAT, MAX_MANIFEST_BYTES);
  if (body === null) return null;
  const parsed = manifestSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}

function* manifestJson(manifest: ArchiveManifest): Generator<string> {
  yield '{"files":[';
  for (let i = 0; i < manifest.files.length; i++) yield `${i === 0 ? '' : ','}${JSON.stringify(manifest.files[i])}`;
  yield '],"backups":';
  yield JSON.stringify(manifest.backups);
  yield ',"released":';
  yield JSON.stringify(manifest.released);
  yield '}';
}

/**
 * Writes the manifest durably (fsync, then rename). Data files are not synced one by one (a first run writes thousands):
 * a frame the manifest names but a crash lost is found when the archive loads, and the file is archived again.
 */
export function writeManifest(dir: string, manifest: ArchiveManifest): Promise<void> {
  return writeChecksummedJsonText(manifestPath(dir), ARCHIVE_MANIFEST_FORMAT, manifestJson(manifest), { durable: true });
}
