import { join } from 'node:path';
import { readChecksummedJson, writeChecksummedJsonText } from '../../fs/checksummedJsonFile';
import { headStampFromHex } from './archiveHeadStamp';
import { isManifestBody, type ManifestBody, type ManifestFileRecord } from './archiveManifestShape';
import { ARCHIVE_MANIFEST_FORMAT, type ArchivedFileRecord, type ArchiveManifest } from './archiveModel';

/** A manifest this large is not one the archive wrote (a million sessions would not reach it). */
const MAX_MANIFEST_BYTES = 1024 * 1024 * 1024;

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
  return isManifestBody(body) ? withHeadStamps(body) : null;
}

function isStamped(file: ManifestFileRecord): file is ArchivedFileRecord {
  return file.headStamp !== undefined && file.head === undefined;
}

/**
 * The manifest with every file's first bytes as a stamp: manifests before stamps kept them as hex, and are converted
 * here; a manifest that is all stamps already is taken as it is, not copied record by record. A file that names them
 * both ways, or neither, makes the manifest one the archive did not write.
 */
function withHeadStamps(manifest: ManifestBody): ArchiveManifest | null {
  if (manifest.files.every(isStamped)) return { ...manifest, files: manifest.files };
  const files: ArchivedFileRecord[] = [];
  for (const { head, headStamp, ...file } of manifest.files) {
    if ((head === undefined) === (headStamp === undefined)) return null;
    files.push({ ...file, headStamp: headStamp ?? headStampFromHex(head ?? '') });
  }
  return { ...manifest, files };
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
 * Resolves with the body's hash, which files saved beside the manifest name to say which version they go with.
 */
export function writeManifest(dir: string, manifest: ArchiveManifest): Promise<string> {
  return writeChecksummedJsonText(manifestPath(dir), ARCHIVE_MANIFEST_FORMAT, manifestJson(manifest), { durable: true });
}
