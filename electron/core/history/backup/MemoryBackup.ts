import { promises as fs } from 'node:fs';
import { basename } from 'node:path';
import {
  BACKUP_FORMAT,
  type BackupExport,
  type BackupHistoryLine,
  type BackupManifest,
  type ImportFilePreview,
  type ImportPreview,
  type ImportResult,
} from '../../../../shared/history/backupModel';
import { lineStats } from '../../../../shared/history/textDiff';
import { CodedError } from '../../../../shared/result';
import { ABSENT, contentHash } from '../../fs/contentHash';
import { resolveInside } from '../../fs/pathContainment';
import type { SafeWriter } from '../../fs/safeWriter';
import { LOCK_FILE_NAME } from '../../lock/consolidationLockStatus';
import type { ChangeSetNote } from '../changeSetNotes';
import type { HistoryIndex } from '../HistoryIndex';
import type { NewHistoryEntry } from '../HistoryStore';
import type { JsonlLog } from '../jsonlLog';
import { listMemoryFiles } from '../memoryFileSet';
import { decodeText } from '../versionText';
import { readTar, writeTarGz, type ArchiveFile } from './tarArchive';

const MANIFEST = 'history-manifest.json';
const FILES_PREFIX = 'memory/';

function stamp(iso: string): string {
  return iso
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
    .replace('T', '-');
}

function fileNameFor(label: string, asOf: string): string {
  const name =
    basename(label)
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'memory';
  return `memory-${name}-${stamp(asOf)}.tar.gz`;
}

/** Why a path from an archive may not be written into a memory folder, or null when it may. */
function refusal(memoryDir: string, path: string): string | null {
  if (!path.toLowerCase().endsWith('.md')) return 'not a memory file (*.md)';
  if (basename(path) === LOCK_FILE_NAME) return 'the dream lock is never written';
  if (path.split('/').some((part) => part === '' || part === '.' || part === '..') || !resolveInside(memoryDir, path))
    return 'outside the memory folder';
  return null;
}

function isManifest(value: unknown): value is BackupManifest {
  const m = value as Partial<BackupManifest> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    m.format === BACKUP_FORMAT &&
    m.version === 1 &&
    Array.isArray(m.files) &&
    Array.isArray(m.history)
  );
}

interface ArchivedMemory {
  readonly manifest: BackupManifest | null;
  readonly files: readonly { path: string; bytes: Buffer }[];
  readonly skipped: readonly string[];
}

/**
 * Backups of one memory folder: an archive (gzipped tar, written by our own code) of its files as they are
 * now or as they were at a chosen time, with the history that led to them in `history-manifest.json`.
 * Importing shows a diff against the chosen folder first, then writes through the safe writer as one
 * app-edit change set; files the archive does not hold are left alone.
 */
export class MemoryBackup {
  constructor(
    private readonly index: HistoryIndex,
    private readonly writer: SafeWriter,
    private readonly notes: JsonlLog<ChangeSetNote>,
    private readonly now: () => number = Date.now,
  ) {}

  async export(memoryDir: string, label: string, asOfMs: number | null): Promise<BackupExport> {
    await this.index.refresh();
    const exportedAt = new Date(this.now()).toISOString();
    const asOf = asOfMs === null ? exportedAt : new Date(asOfMs).toISOString();
    const files = asOfMs === null ? await this.filesNow(memoryDir) : await this.filesAt(memoryDir, asOfMs);
    const history = this.historyUntil(memoryDir, asOfMs ?? this.now());
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: 1,
      exportedAt,
      asOf,
      source: { memoryDir, label },
      files: files.map((file) => ({ path: file.path, sha256: contentHash(file.bytes), size: file.bytes.length })),
      history,
    };
    const entries: ArchiveFile[] = [
      { name: MANIFEST, bytes: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), mtimeMs: this.now() },
      ...files.map((file) => ({ name: FILES_PREFIX + file.path, bytes: file.bytes, mtimeMs: asOfMs ?? this.now() })),
    ];
    return { fileName: fileNameFor(label, asOf), base64: writeTarGz(entries).toString('base64'), fileCount: files.length, asOf };
  }

  async preview(memoryDir: string, archive: Uint8Array): Promise<ImportPreview> {
    const archived = this.unpack(archive);
    const files: ImportFilePreview[] = [];
    for (const file of archived.files) files.push(await this.previewFile(memoryDir, file.path, file.bytes));
    const inArchive = new Set(archived.files.map((f) => f.path));
    const untouched = (await listMemoryFiles(memoryDir)).files.map((f) => f.path).filter((path) => !inArchive.has(path));
    const m = archived.manifest;
    return {
      memoryDir,
      manifest: m ? { exportedAt: m.exportedAt, asOf: m.asOf, source: m.source } : null,
      files,
      untouched,
      skipped: archived.skipped,
    };
  }

  /** Writes the archive's new and changed files, each only if it is still what the preview showed (`expected`). */
  async apply(memoryDir: string, archive: Uint8Array, expected: Readonly<Record<string, string | null>>): Promise<ImportResult> {
    const archived = this.unpack(archive);
    const plan: { path: string; bytes: Buffer; base: string | null }[] = [];
    for (const file of archived.files) {
      const preview = await this.previewFile(memoryDir, file.path, file.bytes);
      if (preview.status === 'refused' || preview.status === 'same') continue;
      if (!(file.path in expected)) throw new CodedError('INVALID_INPUT', `${file.path} was not in the preview; preview the import again`);
      const base = expected[file.path];
      if (preview.current !== base)
        throw new CodedError('CONFLICT', `${file.path} changed since the preview; nothing was imported`, { path: file.path });
      plan.push({ path: file.path, bytes: file.bytes, base });
    }
    if (plan.length === 0) return { written: [], changeSetId: null };
    const { store } = this.index;
    for (const step of plan) await store.putBlob(step.bytes);
    const source = archived.manifest ? ` from ${archived.manifest.source.label} as of ${archived.manifest.asOf}` : '';
    const summary = `Imported a backup${source}`;
    const changeSetId = store.newChangeSetId();
    const entries: NewHistoryEntry[] = [];
    try {
      for (const step of plan) {
        await this.writer.write(memoryDir, step.path, step.bytes, step.base ?? ABSENT);
        entries.push({
          folder: memoryDir,
          path: step.path,
          before: step.base,
          after: contentHash(step.bytes),
          size: step.bytes.length,
          cause: 'app-edit',
          changeSetId,
          summary,
        });
      }
    } finally {
      if (entries.length > 0) {
        await store.append(entries);
        const note: ChangeSetNote = {
          v: 1,
          changeSetId,
          time: new Date(this.now()).toISOString(),
          cause: 'app-edit',
          sessionId: null,
          firstSight: false,
          foundAtStartup: false,
          evidence: { kind: 'app-edit', summary },
        };
        await this.notes.append([note]);
        await this.index.refresh();
      }
    }
    return { written: entries.map((e) => e.path), changeSetId };
  }

  private async previewFile(memoryDir: string, path: string, bytes: Buffer): Promise<ImportFilePreview> {
    const archivedHash = contentHash(bytes);
    const archivedText = decodeText(bytes);
    const refused = (reason: string): ImportFilePreview => ({
      path,
      status: 'refused',
      current: null,
      archived: archivedHash,
      currentText: null,
      archivedText,
      linesAdded: 0,
      linesRemoved: 0,
      reason,
    });
    const why = refusal(memoryDir, path);
    if (why) return refused(why);
    let current;
    try {
      current = await this.writer.readCurrent(memoryDir, path);
    } catch (error) {
      if (error instanceof CodedError && error.code === 'NOT_FOUND') current = { hash: null, bytes: null };
      else return refused(error instanceof Error ? error.message : String(error));
    }
    const currentText = current.bytes ? decodeText(current.bytes) : null;
    const stats = lineStats(current.bytes ? (currentText ?? '') : null, archivedText ?? '');
    return {
      path,
      status: current.hash === null ? 'new' : current.hash === archivedHash ? 'same' : 'changed',
      current: current.hash,
      archived: archivedHash,
      currentText,
      archivedText,
      ...stats,
      reason: null,
    };
  }

  private unpack(archive: Uint8Array): ArchivedMemory {
    const { files, skipped } = readTar(archive);
    const manifestFile = files.find((file) => file.name === MANIFEST);
    let manifest: BackupManifest | null = null;
    if (manifestFile) {
      try {
        const parsed: unknown = JSON.parse(Buffer.from(manifestFile.bytes).toString('utf8'));
        if (isManifest(parsed)) manifest = parsed;
      } catch {
        throw new CodedError('INVALID_INPUT', `The archive's ${MANIFEST} is not valid JSON`);
      }
    }
    const prefixed = files.some((file) => file.name.startsWith(FILES_PREFIX));
    const memory = files
      .filter((file) => file.name !== MANIFEST && (!prefixed || file.name.startsWith(FILES_PREFIX)))
      .map((file) => ({ path: prefixed ? file.name.slice(FILES_PREFIX.length) : file.name, bytes: Buffer.from(file.bytes) }));
    const others = files
      .filter((file) => file.name !== MANIFEST && prefixed && !file.name.startsWith(FILES_PREFIX))
      .map((file) => file.name);
    if (manifest) {
      const declared = new Map(manifest.files.map((file) => [file.path, file.sha256]));
      for (const file of memory) {
        const sha = declared.get(file.path);
        if (sha !== undefined && sha !== contentHash(file.bytes))
          throw new CodedError('INVALID_INPUT', `${file.path} in the archive does not match its manifest: the archive is damaged`);
      }
    }
    return { manifest, files: memory, skipped: [...skipped, ...others] };
  }

  private async filesNow(memoryDir: string): Promise<{ path: string; bytes: Buffer }[]> {
    const out: { path: string; bytes: Buffer }[] = [];
    for (const file of (await listMemoryFiles(memoryDir)).files) {
      const bytes = await fs.readFile(file.absolutePath).catch(() => null);
      if (bytes) out.push({ path: file.path, bytes });
    }
    return out;
  }

  /** The folder rebuilt from history as it stood at `asOfMs`: each file's newest version then, unless it was deleted. */
  private async filesAt(memoryDir: string, asOfMs: number): Promise<{ path: string; bytes: Buffer }[]> {
    const out: { path: string; bytes: Buffer }[] = [];
    const paths = [...this.index.latestInFolder(memoryDir).keys()].sort();
    for (const path of paths) {
      let version: string | null = null;
      for (const entry of this.index.versions(memoryDir, path))
        // A reconstructed version with unknown bytes has nothing to put in a backup: the last known one stands.
        if (this.timeOf(entry.changeSetId, entry.time) <= asOfMs && (entry.certainty ?? 'exact') === 'exact') version = entry.after;
      if (version !== null) out.push({ path, bytes: await this.index.store.readBlob(version) });
    }
    return out;
  }

  private historyUntil(memoryDir: string, asOfMs: number): BackupHistoryLine[] {
    const lines: BackupHistoryLine[] = [];
    for (const path of [...this.index.latestInFolder(memoryDir).keys()].sort()) {
      for (const entry of this.index.versions(memoryDir, path)) {
        const time = this.timeOf(entry.changeSetId, entry.time);
        if (time > asOfMs || (entry.certainty ?? 'exact') !== 'exact') continue;
        const note = this.index.changeSet(entry.changeSetId)?.note;
        lines.push({
          changeSetId: entry.changeSetId,
          time: new Date(time).toISOString(),
          cause: note?.cause ?? entry.cause,
          summary: entry.summary,
          path,
          before: entry.before,
          after: entry.after,
        });
      }
    }
    return lines.sort((a, b) => a.time.localeCompare(b.time));
  }

  /** When a change happened: the note's time (the file's own time) when there is one, else when it was recorded. */
  private timeOf(changeSetId: string, recorded: string): number {
    return Date.parse(this.index.changeSet(changeSetId)?.note?.time ?? recorded);
  }
}
