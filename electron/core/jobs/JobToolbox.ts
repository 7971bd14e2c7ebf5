import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { JobPhase, ProposalKind, RefusedChange } from '../../../shared/jobs/jobTypes';
import { INDEX_FILE_NAME } from '../memory/memoryFolderScan';
import { EvidenceLedger, type Citation } from './evidenceLedger';
import type { StagingOverlay } from './StagingOverlay';
import {
  absoluteToolPath,
  resolveToolPath,
  symlinkOnPath,
  transcriptRootOf,
  TRANSCRIPTS_ALIAS,
  type ToolPath,
  type ToolRoots,
} from './toolPaths';
import {
  grepAlternatives,
  grepRealFiles,
  listRealFolder,
  matchExcerpt,
  readTranscriptWindow,
  TranscriptLineIndex,
  type FolderEntry,
} from './transcriptAccess';
import { refuseWrite } from './writePolicy';

export interface ToolOutcome {
  readonly content: string;
  readonly isError: boolean;
}

const MAX_LISTED = 500;
const MAX_MEMORY_READ_CHARS = 100_000;
const MAX_GREP_MATCHES = 100;
const MAX_GREP_FILES = 500;
const MAX_REFUSALS_KEPT = 500;

/** The sources a write, edit or delete rests on (see EvidenceLedger). */
const evidenceSchema = z
  .array(z.object({ source: z.string().min(1).max(1024), line: z.number().int().min(1), quote: z.string().min(1).max(2000) }))
  .max(20)
  .optional();

const schemas = {
  list_dir: z.object({ path: z.string() }),
  read_file: z.object({ path: z.string(), offset: z.number().int().nonnegative().optional() }),
  grep: z.object({ pattern: z.string().min(1).max(1000), path: z.string().optional() }),
  write_file: z.object({ path: z.string(), content: z.string(), evidence: evidenceSchema }),
  edit_file: z.object({ path: z.string(), old_string: z.string().min(1), new_string: z.string(), evidence: evidenceSchema }),
  delete_file: z.object({ path: z.string(), evidence: evidenceSchema }),
};

type ToolName = keyof typeof schemas;

const PHASE_RANK: Readonly<Record<JobPhase, number>> = {
  starting: 0,
  orient: 1,
  reading: 1,
  gather: 2,
  consolidate: 3,
  saving: 3,
  prune: 4,
  finished: 5,
};

function isToolName(name: string): name is ToolName {
  return Object.hasOwn(schemas, name);
}

/** Wraps file text in a data tag, escaping any closing tag inside so the data cannot end its own wrapper. */
function asData(tag: string, attributes: string, text: string): string {
  return `<${tag} ${attributes}>\n${text.split(`</${tag}`).join(`<\\/${tag}`)}\n</${tag}>`;
}

function formatEntries(entries: readonly FolderEntry[]): string {
  if (entries.length === 0) return '(empty)';
  return entries
    .map((e) =>
      e.type === 'folder' ? `${e.name}/` : e.type === 'symlink' ? `${e.name} (symlink, not followed)` : `${e.name} (${e.bytes ?? 0} bytes)`,
    )
    .join('\n');
}

/**
 * Runs the model's tool calls for one job: reads come from the staging overlay (memory) or the real
 * transcript folder, writes go to the overlay only, and every write passes the write policy first.
 * A refusal is a tool error the model sees, and is kept for the job record.
 */
export class JobToolbox {
  private readonly refusals: RefusedChange[] = [];
  private refusalCount = 0;
  private phase: JobPhase;
  /** What each staged change cites, checked against the transcripts and the memory as it was. */
  readonly evidence: EvidenceLedger;
  private readonly transcriptLines = new TranscriptLineIndex();

  constructor(
    private readonly roots: ToolRoots,
    readonly overlay: StagingOverlay,
    private readonly kind: 'dream' | 'extraction',
  ) {
    this.phase = 'starting';
    this.evidence = new EvidenceLedger(roots, overlay);
  }

  currentPhase(): JobPhase {
    return this.phase;
  }

  refused(): readonly RefusedChange[] {
    return this.refusals;
  }

  /** Refusals beyond those kept (a model that keeps trying is summarised, not recorded a thousand times). */
  refusedBeyondKept(): number {
    return this.refusalCount - this.refusals.length;
  }

  async run(name: string, input: unknown, signal: AbortSignal): Promise<ToolOutcome> {
    if (!isToolName(name)) return { content: `Unknown tool ${name.slice(0, 100)}`, isError: true };
    try {
      switch (name) {
        case 'list_dir':
          return await this.withArgs(name, input, (args) => this.listDir(args.path));
        case 'read_file':
          return await this.withArgs(name, input, (args) => this.readFile(args.path, args.offset ?? 0));
        case 'grep':
          return await this.withArgs(name, input, (args) => this.grep(args.pattern, args.path, signal));
        case 'write_file':
          return await this.withArgs(name, input, (args) => this.cited(args, signal, () => this.writeFile(args.path, args.content)));
        case 'edit_file':
          return await this.withArgs(name, input, (args) =>
            this.cited(args, signal, () => this.editFile(args.path, args.old_string, args.new_string)),
          );
        case 'delete_file':
          return await this.withArgs(name, input, (args) => this.cited(args, signal, () => this.deleteFile(args.path)));
      }
    } catch (error) {
      return { content: `${name} failed: ${(error as Error).message}`, isError: true };
    }
  }

  private withArgs<N extends ToolName>(
    name: N,
    input: unknown,
    run: (args: z.infer<(typeof schemas)[N]>) => Promise<ToolOutcome>,
  ): Promise<ToolOutcome> {
    const parsed = schemas[name].safeParse(input);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'} ${i.message}`).join('; ');
      return Promise.resolve({ content: `Bad input for ${name}: ${problems}`, isError: true });
    }
    return run(parsed.data as z.infer<(typeof schemas)[N]>);
  }

  /**
   * Runs a write tool, then files the citations of the change it staged (a write that succeeds has staged its
   * memory path) and tells the model about those that do not hold.
   */
  private async cited(
    args: { readonly path: string; readonly evidence?: readonly Citation[] },
    signal: AbortSignal,
    stage: () => Promise<ToolOutcome>,
  ): Promise<ToolOutcome> {
    const outcome = await stage();
    const path = resolveToolPath(args.path, this.roots);
    if (outcome.isError || path.area !== 'memory') return outcome;
    const note = await this.evidence.record(path.rel, args.evidence ?? [], signal);
    return { content: outcome.content + note, isError: false };
  }

  private advance(phase: JobPhase): void {
    if (PHASE_RANK[phase] > PHASE_RANK[this.phase]) this.phase = phase;
  }

  private noteRead(path: ToolPath): void {
    if (path.area === 'transcripts') this.advance(this.kind === 'dream' ? 'gather' : 'reading');
    else this.advance(this.kind === 'dream' ? 'orient' : 'reading');
  }

  private noteWrite(rel: string): void {
    if (this.kind === 'extraction') this.advance('saving');
    else this.advance(rel === INDEX_FILE_NAME ? 'prune' : 'consolidate');
  }

  private async refuseSymlinks(path: { area: 'memory' | 'transcripts'; rel: string }): Promise<string | null> {
    if (path.area === 'memory') return null;
    const where = transcriptRootOf(path.rel, this.roots);
    return where.root && (await symlinkOnPath(where.root, where.rel)) ? 'symlinks are never followed' : null;
  }

  private async listDir(raw: string): Promise<ToolOutcome> {
    const path = resolveToolPath(raw, this.roots);
    if (path.area === 'refused') return { content: `Refused: ${path.reason}`, isError: true };
    const symlink = await this.refuseSymlinks(path);
    if (symlink) return { content: `Refused: ${symlink}`, isError: true };
    this.noteRead(path);
    if (path.area === 'memory') {
      if (!this.overlay.isFolder(path.rel)) return { content: `${raw} is not a folder`, isError: true };
      const entries = this.overlay.list(path.rel);
      const shown = formatEntries(entries.slice(0, MAX_LISTED));
      const note = path.rel === '' && this.roots.transcriptDir ? `\n${TRANSCRIPTS_ALIAS}/ (the project's transcripts, read-only)` : '';
      return { content: `${shown}${entries.length > MAX_LISTED ? `\n… ${entries.length - MAX_LISTED} more` : ''}${note}`, isError: false };
    }
    const entries = await listRealFolder(absoluteToolPath(path, this.roots), MAX_LISTED);
    // Projects that share this memory (sessions started in a sub-folder of the repository) show as folders.
    const linked = path.rel === '' ? Object.keys(this.roots.linkedTranscriptDirs ?? {}) : [];
    return {
      content: formatEntries([...entries, ...linked.map((name) => ({ name, type: 'folder' as const, bytes: null }))]),
      isError: false,
    };
  }

  private async readFile(raw: string, offset: number): Promise<ToolOutcome> {
    const path = resolveToolPath(raw, this.roots);
    if (path.area === 'refused') return { content: `Refused: ${path.reason}`, isError: true };
    const symlink = await this.refuseSymlinks(path);
    if (symlink) return { content: `Refused: ${symlink}`, isError: true };
    this.noteRead(path);
    if (path.area === 'transcripts') {
      const file = absoluteToolPath(path, this.roots);
      const stats = await fs.lstat(file);
      if (!stats.isFile()) return { content: `${raw} is not a file`, isError: true };
      const window = await readTranscriptWindow(file, offset, await this.transcriptLines.lineAt(file, offset));
      const more = window.nextOffset === null ? 'End of file.' : `More follows: call read_file with offset ${window.nextOffset}.`;
      return {
        content: `${asData('transcript_data', `path="${raw}" bytes="${offset}-${window.nextOffset ?? window.size} of ${window.size}"`, window.text)}\n${more}`,
        isError: false,
      };
    }
    const read = this.overlay.read(path.rel);
    if (read.kind === 'missing') return { content: `${raw} does not exist`, isError: true };
    if (read.kind === 'folder') return { content: `${raw} is a folder; use list_dir`, isError: true };
    if (read.kind === 'unreadable') return { content: `${raw} cannot be read: ${read.reason}`, isError: true };
    const slice = read.content.slice(offset, offset + MAX_MEMORY_READ_CHARS);
    const end = offset + slice.length;
    const more = end < read.content.length ? `\nMore follows: call read_file with offset ${end}.` : '';
    return { content: `${asData('memory_file', `path="${path.rel}"`, slice)}${more}`, isError: false };
  }

  private async grep(pattern: string, raw: string | undefined, signal: AbortSignal): Promise<ToolOutcome> {
    const alternatives = grepAlternatives(pattern);
    if (alternatives.length === 0) return { content: 'The pattern is empty', isError: true };
    const path = resolveToolPath(raw ?? '', this.roots);
    if (path.area === 'refused') return { content: `Refused: ${path.reason}`, isError: true };
    const symlink = await this.refuseSymlinks(path);
    if (symlink) return { content: `Refused: ${symlink}`, isError: true };
    this.noteRead(path);
    const lines: string[] = [];
    if (path.area === 'memory') {
      const prefix = path.rel === '' ? '' : `${path.rel}/`;
      for (const file of this.overlay.livePaths()) {
        if (file !== path.rel && !file.startsWith(prefix)) continue;
        const read = this.overlay.read(file);
        if (read.kind !== 'text') continue;
        read.content.split('\n').forEach((line, index) => {
          const excerpt = matchExcerpt(line, line.toLowerCase(), alternatives);
          if (excerpt !== null) lines.push(`${file}:${index + 1}: ${excerpt}`);
        });
      }
    } else {
      const target = absoluteToolPath(path, this.roots);
      const stats = await fs.lstat(target);
      let files: { path: string; shownAs: string; mtimeMs: number }[];
      if (stats.isDirectory()) {
        // The folder itself, and at the top the folders of the projects that share this memory.
        const folders = [{ dir: target, shownAs: path.rel }];
        if (path.rel === '')
          for (const [name, dir] of Object.entries(this.roots.linkedTranscriptDirs ?? {})) folders.push({ dir, shownAs: name });
        files = [];
        for (const folder of folders) {
          const entries = await fs.readdir(folder.dir, { withFileTypes: true }).catch(() => []);
          for (const e of entries) {
            if (!e.isFile() || !e.name.endsWith('.jsonl')) continue;
            const file = join(folder.dir, e.name);
            files.push({
              path: file,
              shownAs: `${TRANSCRIPTS_ALIAS}/${folder.shownAs === '' ? '' : `${folder.shownAs}/`}${e.name}`,
              mtimeMs: (await fs.lstat(file)).mtimeMs,
            });
          }
        }
        // Oldest first, so the most recent sessions' matches end the list (like `| tail`).
        files.sort((a, b) => a.mtimeMs - b.mtimeMs);
        files = files.slice(-MAX_GREP_FILES);
      } else {
        files = [{ path: target, shownAs: `${TRANSCRIPTS_ALIAS}/${path.rel}`, mtimeMs: stats.mtimeMs }];
      }
      for (const match of await grepRealFiles(files, alternatives, MAX_GREP_MATCHES, signal))
        lines.push(`${match.file}:${match.line}: ${match.excerpt}`);
    }
    if (lines.length === 0) return { content: 'No matches.', isError: false };
    const shown = lines.slice(-MAX_GREP_MATCHES);
    const omitted = lines.length - shown.length;
    return {
      content: `${omitted > 0 ? `(${omitted} earlier matches omitted)\n` : ''}${asData('search_results', `pattern="${pattern.replace(/"/g, "'")}"`, shown.join('\n'))}`,
      isError: false,
    };
  }

  private refuse(raw: string, kind: ProposalKind, reason: string): ToolOutcome {
    this.refusalCount++;
    const duplicate = this.refusals.some((r) => r.path === raw && r.reason === reason && r.kind === kind);
    if (!duplicate && this.refusals.length < MAX_REFUSALS_KEPT) this.refusals.push({ path: raw, kind, reason });
    return { content: `Refused: ${reason}. Nothing was staged.`, isError: true };
  }

  private kindFor(path: ToolPath): ProposalKind {
    return path.area === 'memory' && this.overlay.read(path.rel).kind === 'text' ? 'modify' : 'add';
  }

  private async writeFile(raw: string, content: string): Promise<ToolOutcome> {
    const path = resolveToolPath(raw, this.roots);
    const reason = await refuseWrite(path, 'write', this.overlay, this.roots.memoryDir, content);
    if (reason !== null || path.area !== 'memory') return this.refuse(raw, this.kindFor(path), reason ?? 'refused');
    this.overlay.write(path.rel, content);
    this.noteWrite(path.rel);
    return { content: `Staged ${path.rel} (${Buffer.byteLength(content)} bytes) for review.`, isError: false };
  }

  private async editFile(raw: string, oldString: string, newString: string): Promise<ToolOutcome> {
    const path = resolveToolPath(raw, this.roots);
    if (path.area === 'memory') {
      const read = this.overlay.read(path.rel);
      if (read.kind === 'missing') return { content: `${raw} does not exist; use write_file to create it`, isError: true };
      if (read.kind === 'text') {
        const first = read.content.indexOf(oldString);
        if (first < 0) return { content: 'old_string was not found in the file', isError: true };
        if (read.content.indexOf(oldString, first + 1) >= 0)
          return { content: 'old_string occurs more than once; include more context', isError: true };
        const next = read.content.slice(0, first) + newString + read.content.slice(first + oldString.length);
        const reason = await refuseWrite(path, 'write', this.overlay, this.roots.memoryDir, next);
        if (reason !== null) return this.refuse(raw, 'modify', reason);
        this.overlay.write(path.rel, next);
        this.noteWrite(path.rel);
        return { content: `Staged the edit to ${path.rel} for review.`, isError: false };
      }
    }
    const reason = await refuseWrite(path, 'write', this.overlay, this.roots.memoryDir, null);
    return this.refuse(raw, 'modify', reason ?? 'that path cannot be edited');
  }

  private async deleteFile(raw: string): Promise<ToolOutcome> {
    const path = resolveToolPath(raw, this.roots);
    const reason = await refuseWrite(path, 'delete', this.overlay, this.roots.memoryDir, null);
    if (reason !== null || path.area !== 'memory') return this.refuse(raw, 'delete', reason ?? 'refused');
    if (this.overlay.read(path.rel).kind !== 'text') return { content: `${raw} does not exist`, isError: true };
    this.overlay.delete(path.rel);
    this.noteWrite(path.rel);
    return { content: `Staged the deletion of ${path.rel} for review.`, isError: false };
  }
}
