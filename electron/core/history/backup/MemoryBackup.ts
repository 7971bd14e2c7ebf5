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
import { conflictError } from '../../fs/safeWriter';
import type { ChangeSetWriter, CurrentVersion } from '../../changes/changeSetWriter';
import type { HistoryIndex } from '../HistoryIndex';
import { listMemoryFiles } from '../memoryFileSet';
import { decodeText } from '../versionText';
import type { WriteRoot } from '../../changes/writeRoot';
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
 * Importing shows a diff against the chosen folder first (read as a write would read it: never through a
 * symlink), then writes through the change-set writer as one app-edit change set; files the archive does not
 * hold are left alone.
 */
export class MemoryBackup {
  constructor(
    private readonly index: HistoryIndex,
    private readonly writer: ChangeSetWriter,
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

  async preview(root: WriteRoot, archive: Uint8Array): Promise<ImportPreview> {
    await this.writer.checkRoot(root);
    const archived = this.unpack(archive);
    const files: ImportFilePreview[] = [];
    for (const file of archived.files) files.push(await this.previewFile(root, file.path, file.bytes));
    const inArchive = new Set(archived.files.map((f) => f.path));
    const untouched = (await listMemoryFiles(root.dir)).files.map((f) => f.path).filter((path) => !inArchive.has(path));
    const m = archived.manifest;
    return {
      memoryDir: root.dir,
      manifest: m ? { exportedAt: m.exportedAt, asOf: m.asOf, source: m.source } : null,
      files,
      untouched,
      skipped: archived.skipped,
    };
  }

  /** Writes the archive's new and changed files, each only if it is still what the preview showed (`expected`). */
  async apply(root: WriteRoot, archive: Uint8Array, expected: Readonly<Record<string, string | null>>): Promise<ImportResult> {
    const archived = this.unpack(archive);
    const plan: { path: string; bytes: Buffer; base: string | null }[] = [];
    for (const file of archived.files) {
      const preview = await this.previewFile(root, file.path, file.bytes);
      if (preview.status === 'refused' || preview.status === 'same') continue;
      if (!(file.path in expected)) throw new CodedError('INVALID_INPUT', `${file.path} was not in the preview; preview the import again`);
      const base = expected[file.path];
      if (preview.current !== base) throw conflictError(file.path, base ?? ABSENT, (await this.writer.readCurrent(root, file.path)).bytes);
      plan.push({ path: file.path, bytes: file.bytes, base });
    }
    if (plan.length === 0) return { written: [], changeSetId: null };
    const source = archived.manifest ? ` from ${archived.manifest.source.label} as of ${archived.manifest.asOf}` : '';
    const outcome = await this.writer.apply({
      root,
      changes: plan.map((step) => ({ path: step.path, base: step.base, after: step.bytes })),
      cause: 'app-edit',
      summary: `Imported a backup${source}`,
    });
    return { written: outcome.written.map((file) => file.path), changeSetId: outcome.changeSetId };
  }

  private async previewFile(root: WriteRoot, path: string, bytes: Buffer): Promise<ImportFilePreview> {
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
    const why = await this.writer.contentRefusal(root, path, bytes);
    if (why) return refused(why.message);
    let current: CurrentVersion;
    try {
      current = await this.writer.readCurrent(root, path);
    } catch (error) {
      return refused(error instanceof Error ? error.message : String(error));
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
