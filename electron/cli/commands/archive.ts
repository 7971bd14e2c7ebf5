import { parseArgs } from 'node:util';
import { MAX_ARCHIVE_CAP_BYTES, MIN_ARCHIVE_CAP_BYTES } from '../../../shared/archive/archiveCap';
import { formatByteSize, parseByteSize } from '../../../shared/archive/byteSizes';
import type { ArchiveProgress, ArchiveStatus } from '../../../shared/model/archive';
import { CodedError } from '../../../shared/result';
import { createCliEngine } from '../cliEngine';
import { CliError, type CliIo } from '../cliIo';
import { bindOptionValues } from '../optionValues';
import { countOf } from '../../../shared/text/plural';

export const ARCHIVE_USAGE =
  'archive [--json] [--prune-before DATE] [--delete-project SLUG] [--enable | --disable] [--max-size SIZE | --max-size none]';

/** Progress lines on stderr at most this often (and one at the end). */
const PROGRESS_EVERY_MS = 1000;

/** `ccmem archive --json`: a stable schema scripts rely on. */
export interface ArchiveJson {
  readonly sessions: number;
  readonly bytes: number;
  readonly compressedBytes: number;
  readonly oldest: string | null;
  readonly cleanupPeriodDays: number;
  readonly enabled: boolean;
  readonly maxBytes: number | null;
  readonly deletedSessions: number;
  readonly files: number;
  readonly fileHistoryBackups: number;
  readonly warnings: readonly string[];
  readonly projects: readonly {
    readonly configRoot: string;
    readonly slug: string;
    readonly sessions: number;
    readonly deletedSessions: number;
    readonly bytes: number;
    readonly compressedBytes: number;
    readonly oldest: string | null;
    readonly newest: string | null;
    readonly transcriptsOnDisk: boolean;
  }[];
  /** What `--prune-before` or `--delete-project` removed; null when the command removed nothing. */
  readonly removed: { readonly sessions: number; readonly files: number; readonly compressedBytes: number } | null;
}

export function toArchiveJson(status: ArchiveStatus, removed: ArchiveJson['removed']): ArchiveJson {
  return {
    sessions: status.sessions,
    bytes: status.bytes,
    compressedBytes: status.compressedBytes,
    oldest: status.oldest,
    cleanupPeriodDays: status.cleanupPeriodDays,
    enabled: status.enabled,
    maxBytes: status.maxBytes,
    deletedSessions: status.deletedSessions,
    files: status.files,
    fileHistoryBackups: status.fileHistoryBackups,
    warnings: status.warnings,
    projects: status.projects.map((project) => ({
      configRoot: project.configRoot,
      slug: project.slug,
      sessions: project.sessions,
      deletedSessions: project.deletedSessions,
      bytes: project.bytes,
      compressedBytes: project.compressedBytes,
      oldest: project.oldest,
      newest: project.newest,
      transcriptsOnDisk: project.transcriptsOnDisk,
    })),
    removed,
  };
}

function parseDate(text: string): Date {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00.000Z` : text);
  if (Number.isNaN(date.getTime())) throw new CliError(`--prune-before takes a date such as 2026-01-31, not '${text}'`, 2);
  return date;
}

function parseCap(text: string): number | null {
  if (text === 'none') return null;
  const bytes = parseByteSize(text);
  if (bytes === null || bytes < MIN_ARCHIVE_CAP_BYTES || bytes > MAX_ARCHIVE_CAP_BYTES)
    throw new CliError(`--max-size takes a size of at least 1 MB such as 500MB or 20GB, or 'none', not '${text}'`, 2);
  return bytes;
}

function describeProgress(progress: ArchiveProgress): string {
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  return `archiving: ${progress.filesDone}/${progress.filesTotal} files, ${mb(progress.bytesDone)}/${mb(progress.bytesTotal)} MB\n`;
}

function statusText(status: ArchiveStatus): string {
  const lines = [
    `Archive: ${status.enabled ? 'on' : 'off'}${status.maxBytes !== null ? `, at most ${formatByteSize(status.maxBytes)}` : ''} (${status.dir})`,
    `Holds ${countOf(status.sessions, 'session')} (${status.deletedSessions} deleted by Claude Code), ${countOf(status.files, 'transcript')} and ${countOf(status.fileHistoryBackups, 'memory backup')}:`,
    `  ${formatByteSize(status.bytes)} kept in ${formatByteSize(status.compressedBytes)}${status.oldest ? `, oldest activity ${status.oldest}` : ''}`,
    `Claude Code deletes transcripts ${status.cleanupPeriodDays} days after their last change (cleanupPeriodDays).`,
  ];
  for (const project of status.projects) {
    lines.push(
      `  ${project.slug}: ${countOf(project.sessions, 'session')}, ${project.deletedSessions} deleted, ${formatByteSize(project.compressedBytes)}${project.transcriptsOnDisk ? '' : ' (no transcripts left on disk)'}`,
    );
  }
  for (const warning of status.warnings) lines.push(`warning: ${warning}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `ccmem archive`: brings the transcript archive up to date (every session and sub-agent transcript the catalog finds,
 * compressed in the app data folder) with progress on stderr, then prints what it holds and how Claude Code's cleanup
 * is set. `--prune-before`, `--delete-project`, `--enable`, `--disable` and `--max-size` change it instead.
 */
export async function runArchive(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: bindOptionValues(argv, ['--delete-project', '--prune-before', '--max-size']),
    options: {
      json: { type: 'boolean', default: false },
      'prune-before': { type: 'string' },
      'delete-project': { type: 'string' },
      enable: { type: 'boolean', default: false },
      disable: { type: 'boolean', default: false },
      'max-size': { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 0) throw new CliError(`usage: ccmem ${ARCHIVE_USAGE}`, 2);
  if (values.enable && values.disable) throw new CliError('choose one of --enable and --disable', 2);
  if (values['prune-before'] !== undefined && values['delete-project'] !== undefined)
    throw new CliError('choose one of --prune-before and --delete-project', 2);
  const pruneBefore = values['prune-before'] !== undefined ? parseDate(values['prune-before']) : null;
  const deleteProject = values['delete-project'] ?? null;
  if (deleteProject !== null && (deleteProject === '' || /[/\\\0]/.test(deleteProject) || deleteProject === '.' || deleteProject === '..'))
    throw new CliError(`'${deleteProject}' is not a project folder name`, 2);
  const maxBytes = values['max-size'] !== undefined ? parseCap(values['max-size']) : undefined;

  const engine = await createCliEngine(io, { readOnly: false });
  try {
    if (values.enable || values.disable || maxBytes !== undefined)
      await engine.archive.setSettings({ enabled: values.enable ? true : values.disable ? false : undefined, maxBytes });
    let removed: ArchiveJson['removed'] = null;
    let status: ArchiveStatus;
    try {
      if (pruneBefore !== null) {
        const result = await engine.archive.prune(pruneBefore);
        removed = { sessions: result.sessions, files: result.files, compressedBytes: result.compressedBytes };
      } else if (deleteProject !== null) {
        const result = await engine.archive.deleteProject(null, deleteProject);
        removed = { sessions: result.sessions, files: result.files, compressedBytes: result.compressedBytes };
      } else if (!values.disable) {
        await engine.catalog.buildNow();
        let printedAt = 0;
        await engine.archive.bringUpToDate({
          onWaitForLock: (pid) => io.stderr(`waiting for ${pid ? `process ${pid}` : 'another process'}, which is updating the archive…\n`),
          onProgress: (progress) => {
            if (progress.running && Date.now() - printedAt < PROGRESS_EVERY_MS) return;
            printedAt = Date.now();
            io.stderr(describeProgress(progress));
          },
        });
      }
      status = await engine.archive.status();
    } catch (error) {
      if (error instanceof CodedError) throw new CliError(error.message);
      throw error;
    }
    if (values.json) io.stdout(`${JSON.stringify(toArchiveJson(status, removed), null, 2)}\n`);
    else {
      if (removed)
        io.stdout(
          `Removed ${countOf(removed.sessions, 'session')} (${countOf(removed.files, 'transcript')}, ${formatByteSize(removed.compressedBytes)}).\n`,
        );
      io.stdout(statusText(status));
    }
    return 0;
  } finally {
    await engine.dispose();
  }
}
