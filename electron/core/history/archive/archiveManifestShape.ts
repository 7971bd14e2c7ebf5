import type { ArchivedBackupRecord, ArchivedFileRecord, ArchiveManifest } from './archiveModel';

/** A file record as manifests keep it: older ones kept the first bytes as hex (`head`) instead of a stamp. */
export type ManifestFileRecord = { readonly headStamp?: string; readonly head?: string } & Omit<ArchivedFileRecord, 'headStamp'>;
export type ManifestBody = Omit<ArchiveManifest, 'files'> & { readonly files: readonly ManifestFileRecord[] };

type Fields = Record<string, unknown>;

const DATA_FILE = /^[0-9a-f]{24}\.\d+\.ccar$/;
const BACKUP_DATA_FILE = /^[0-9a-f]{24}\.ccar$/;
const HEAD_STAMP = /^(?:|\d+:[A-Za-z0-9_-]{43})$/;
const HEX = /^(?:[0-9a-f]{2})*$/;
const LAYOUTS = new Set(['session', 'subagents-folder', 'sibling']);

const FILE_KEYS = new Set([
  'path',
  'configRoot',
  'slug',
  'sessionId',
  'agentId',
  'layout',
  'dataFile',
  'bytes',
  'compressedBytes',
  'frames',
  'headStamp',
  'head',
  'tail',
  'lineStart',
  'source',
  'meta',
  'firstArchivedAt',
  'lastArchivedAt',
  'goneSince',
  'rewrites',
]);
const SOURCE_KEYS = new Set(['fileId', 'size', 'mtimeNs', 'mtimeMs']);
const META_KEYS = new Set(['agentType', 'description', 'toolUseId', 'parentAgentId', 'spawnDepth']);
const BACKUP_KEYS = new Set([
  'configRoot',
  'sessionId',
  'backupFileName',
  'trackedPath',
  'dataFile',
  'bytes',
  'compressedBytes',
  'frame',
  'archivedAt',
]);
const RELEASED_KEYS = new Set(['path', 'mtimeMs', 'releasedAt']);
const MANIFEST_KEYS = new Set(['files', 'backups', 'released']);

/** A plain object with only `allowed` keys (a manifest the archive wrote names nothing else). */
function isRecord(value: unknown, allowed: ReadonlySet<string>): value is Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isFilled = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isStringOrNull = (value: unknown): boolean => value === null || typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const isFrame = (value: unknown): boolean => Array.isArray(value) && value.length === 5 && value.every(isCount);

function isMeta(value: unknown): boolean {
  if (value === null) return true;
  if (!isRecord(value, META_KEYS)) return false;
  const depth = value.spawnDepth;
  return (
    isStringOrNull(value.agentType) &&
    isStringOrNull(value.description) &&
    isStringOrNull(value.toolUseId) &&
    isStringOrNull(value.parentAgentId) &&
    (depth === null || (Number.isInteger(depth) && (depth as number) > 0))
  );
}

function isSource(value: unknown): boolean {
  return (
    isRecord(value, SOURCE_KEYS) && isString(value.fileId) && isCount(value.size) && isString(value.mtimeNs) && isNumber(value.mtimeMs)
  );
}

function isFileRecord(value: unknown): value is ManifestFileRecord {
  if (!isRecord(value, FILE_KEYS)) return false;
  const { headStamp, head } = value;
  return (
    isFilled(value.path) &&
    isFilled(value.configRoot) &&
    isFilled(value.slug) &&
    isFilled(value.sessionId) &&
    isStringOrNull(value.agentId) &&
    LAYOUTS.has(value.layout as string) &&
    isString(value.dataFile) &&
    DATA_FILE.test(value.dataFile) &&
    isCount(value.bytes) &&
    isCount(value.compressedBytes) &&
    Array.isArray(value.frames) &&
    value.frames.every(isFrame) &&
    (headStamp === undefined || (isString(headStamp) && HEAD_STAMP.test(headStamp))) &&
    (head === undefined || (isString(head) && HEX.test(head))) &&
    isString(value.tail) &&
    isCount(value.lineStart) &&
    isSource(value.source) &&
    isMeta(value.meta) &&
    isString(value.firstArchivedAt) &&
    isString(value.lastArchivedAt) &&
    isStringOrNull(value.goneSince) &&
    isCount(value.rewrites)
  );
}

function isBackupRecord(value: unknown): value is ArchivedBackupRecord {
  return (
    isRecord(value, BACKUP_KEYS) &&
    isFilled(value.configRoot) &&
    isFilled(value.sessionId) &&
    isFilled(value.backupFileName) &&
    isString(value.trackedPath) &&
    isString(value.dataFile) &&
    BACKUP_DATA_FILE.test(value.dataFile) &&
    isCount(value.bytes) &&
    isCount(value.compressedBytes) &&
    isFrame(value.frame) &&
    isString(value.archivedAt)
  );
}

function isReleasedRecord(value: unknown): boolean {
  return isRecord(value, RELEASED_KEYS) && isString(value.path) && isNumber(value.mtimeMs) && isString(value.releasedAt);
}

/**
 * Whether a manifest's body has the shape `writeManifest` saves; anything else is not trusted (see `readManifest`).
 * Checked by hand, not by a schema library: the large bench home's manifest (10,156 files) took a schema 70 ms to
 * check, and 120 ms on its first use, which a transcript's first open waited for; these checks take a few.
 */
export function isManifestBody(value: unknown): value is ManifestBody {
  return (
    isRecord(value, MANIFEST_KEYS) &&
    Array.isArray(value.files) &&
    value.files.every(isFileRecord) &&
    Array.isArray(value.backups) &&
    value.backups.every(isBackupRecord) &&
    Array.isArray(value.released) &&
    value.released.every(isReleasedRecord)
  );
}
