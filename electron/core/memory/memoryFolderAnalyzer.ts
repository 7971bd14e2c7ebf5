import { lstatSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, sep } from 'node:path';
import {
  computeFindings,
  DEFAULT_STALE_AFTER_DAYS,
  type FileFacts,
  type IndexFacts,
  type MemoryFinding,
  type SecretHit,
} from '../../../shared/memory/findings';
import {
  isMemoryFileName,
  isTopicFileName,
  recallCut,
  truncateEntrypoint,
  type EntrypointTruncation,
  type RecallCut,
} from '../../../shared/memory/modelView';
import { fingerprint, type Fingerprint } from '../../../shared/memory/nearDuplicates';
import { findCitedPaths, findRelativeDates, type CitedPath, type TextHit } from '../../../shared/memory/staleness';
import { asMemoryType, type ConsolidationLockStatus, type FrontmatterVariant, type MemoryType } from '../../../shared/model/memory';
import type { ItemWarning } from '../../../shared/model/warnings';
import { contentHash } from '../fs/contentHash';
import { isReallyWithin, isWithin } from '../fs/pathContainment';
import { describeFsError, warning } from '../fs/readSafely';
import { readConsolidationLockStatus } from '../lock/consolidationLockStatus';
import { isLiveDreamLock } from '../lock/liveDreamLock';
import { frontmatterField, parseFrontmatter } from './frontmatter';
import type { ScanProgressSink } from './scanProgress';
import { SecretScanner } from '../secrets/secretScan';
import { INDEX_FILE_NAME } from '../../../shared/memory/indexFileName';
import { walkMemoryFolder } from '../layout/memoryFolderWalk';

/** Files larger than this are not memories anyone wrote by hand; they are listed, not read. */
export const MAX_TOPIC_FILE_BYTES = 16 * 1024 * 1024;
const MAX_INDEX_BYTES = 4 * 1024 * 1024;
/**
 * Text checks (secrets, staleness, near-duplicates) look at this much of a file: memories are meant to be
 * short, and a pathological multi-megabyte one must not stall the review. Larger files get a warning saying so.
 */
const MAX_CHECKED_CHARS = 256 * 1024;

/** Everything learned from one version of a file's text; cached until its size, mtime or inode change. */
interface TextAnalysis {
  readonly hash: string | null;
  readonly readable: boolean;
  readonly warning: ItemWarning | null;
  readonly variant: FrontmatterVariant;
  readonly frontmatterError: string | null;
  readonly name: string | null;
  readonly description: string | null;
  readonly type: MemoryType | null;
  readonly rawType: string | null;
  readonly originSessionId: string | null;
  readonly relativeDates: readonly TextHit[];
  readonly citedPaths: readonly CitedPath[];
  readonly fingerprint: Fingerprint | null;
  readonly recall: RecallCut | null;
  readonly secrets: readonly SecretHit[];
}

/** A file just read: its analysis waits for the secret scan of `checked`, done for every file read at once. */
interface ReadText {
  readonly analysis: TextAnalysis;
  readonly checked: string | null;
}

export interface AnalyzedFile {
  readonly relativePath: string;
  readonly absolutePath: string;
  readonly scope: 'private' | 'team';
  readonly mtimeMs: number;
  readonly bytes: number;
  readonly isSymlink: boolean;
  readonly text: TextAnalysis;
  readonly facts: FileFacts;
}

export interface AnalyzedIndex extends IndexFacts {
  readonly hash: string;
  readonly loaded: EntrypointTruncation;
}

export interface FolderAnalysis {
  readonly memoryDir: string;
  readonly exists: boolean;
  readonly folderIsSymlink: boolean;
  readonly files: readonly AnalyzedFile[];
  readonly indexes: readonly AnalyzedIndex[];
  readonly findings: readonly MemoryFinding[];
  readonly lock: ConsolidationLockStatus;
  readonly lockLive: boolean;
  readonly warnings: readonly ItemWarning[];
}

export interface AnalyzeOptions {
  readonly memoryDir: string;
  readonly kind: 'project' | 'agent';
  /** The project's real path, for citations of files that no longer exist; null when unknown. */
  readonly projectPath: string | null;
  readonly now?: number;
  readonly staleAfterDays?: number;
  /**
   * The folder `memoryDir` must really lie in (agent memory: its project, or the config root for user scope). One
   * that leads out of it through a symlink is not read at all: its review is the `folder.outside-root` finding.
   */
  readonly boundary?: string | null;
  /** Told how many files there are to read and each one read, so a slow first scan can show how far it got. */
  readonly progress?: ScanProgressSink;
}

const NO_LOCK: ConsolidationLockStatus = { exists: false, lastConsolidatedAt: null, holderPid: null, holderAlive: null };

interface FoundEntry {
  readonly relativePath: string;
  readonly absolutePath: string;
  readonly stats: Stats;
  readonly isSymlink: boolean;
  readonly outside: boolean;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a memory folder the way a reviewer needs it: every topic file's header, the text signs of staleness,
 * secrets and near-duplicates, the indexes and what the model loads of them, and the findings. Synchronous
 * file-system calls keep a folder of a thousand files in milliseconds; per-file results are cached by
 * (size, mtime, inode) and secret scans by content hash, so a warm review only re-stats the files.
 */
export class MemoryFolderAnalyzer {
  private readonly texts = new Map<string, { readonly key: string; readonly analysis: TextAnalysis }>();

  constructor(private readonly secrets = new SecretScanner()) {}

  async analyze(options: AnalyzeOptions): Promise<FolderAnalysis> {
    const now = options.now ?? Date.now();
    const staleAfterDays = options.staleAfterDays ?? DEFAULT_STALE_AFTER_DAYS;
    const { memoryDir } = options;
    const warnings: ItemWarning[] = [];
    const rootStats = lstatOrNull(memoryDir);
    const folderIsSymlink = rootStats?.isSymbolicLink() ?? false;
    const realRoot = realpathOrNull(memoryDir);
    const exists = realRoot !== null && (statSync(realRoot, { throwIfNoEntry: false })?.isDirectory() ?? false);
    if (options.boundary && !(await isReallyWithin(options.boundary, memoryDir))) {
      const findings = computeFindings({
        kind: options.kind,
        files: [],
        indexes: [],
        existingPaths: new Set(),
        folderSymlinkOutside: false,
        folderOutsideRoot: true,
        otherSymlinksOutside: [],
        lockHolderPid: null,
        lockLive: false,
        now,
        staleAfterDays,
      });
      return { memoryDir, exists, folderIsSymlink, files: [], indexes: [], findings, lock: NO_LOCK, lockLive: false, warnings };
    }
    const lock = await readConsolidationLockStatus(memoryDir);
    const lockLive = isLiveDreamLock(lock, now);
    if (!exists || !realRoot) {
      return { memoryDir, exists: false, folderIsSymlink, files: [], indexes: [], findings: [], lock, lockLive, warnings };
    }
    const realParent = realpathOrNull(dirname(memoryDir));
    const folderSymlinkOutside = folderIsSymlink && (realParent === null || !isWithin(realParent, realRoot));
    const found = await this.walk(memoryDir, realRoot, warnings);
    const otherSymlinksOutside = found.filter((e) => e.outside && e.relativePath.endsWith(INDEX_FILE_NAME)).map((e) => e.relativePath);
    const indexes = this.readIndexes(memoryDir, options.kind, found, warnings);
    const topics = found.filter((e) => isTopicFileName(basename(e.relativePath)));
    options.progress?.begin(topics.length);
    this.forgetGone(memoryDir, found);
    const projectRoot =
      options.projectPath && statSync(options.projectPath, { throwIfNoEntry: false })?.isDirectory() ? options.projectPath : null;
    // Many memories cite the same files: stat each path once per review.
    const seenPaths = new Map<string, boolean>();
    const pathExists = (path: string) => {
      let known = seenPaths.get(path);
      if (known === undefined) {
        known = lstatOrNull(path) !== null;
        seenPaths.set(path, known);
      }
      return known;
    };
    const texts = await this.analyzeTexts(topics, options.progress);
    const files: AnalyzedFile[] = [];
    topics.forEach((entry, index) => {
      const text = texts[index];
      if (text.warning) warnings.push(text.warning);
      const scope = entry.relativePath.startsWith('team/') && options.kind === 'project' ? 'team' : 'private';
      const missingPaths = projectRoot
        ? text.citedPaths.filter((cited) => this.citesMissing(cited.path, projectRoot, memoryDir, entry.relativePath, pathExists))
        : [];
      files.push({
        relativePath: entry.relativePath,
        absolutePath: entry.absolutePath,
        scope,
        mtimeMs: entry.stats.mtimeMs,
        bytes: entry.stats.size,
        isSymlink: entry.isSymlink,
        text,
        facts: {
          relativePath: entry.relativePath,
          scope,
          mtimeMs: entry.stats.mtimeMs,
          readable: text.readable,
          symlinkOutside: entry.outside,
          variant: text.variant,
          frontmatterError: text.frontmatterError,
          description: text.description,
          type: text.type,
          rawType: text.rawType,
          relativeDates: text.relativeDates,
          missingPaths,
          secrets: text.secrets,
          fingerprint: text.fingerprint,
        },
      });
    });
    const findings = computeFindings({
      kind: options.kind,
      files: files.map((f) => f.facts),
      indexes,
      existingPaths: new Set(found.map((e) => e.relativePath)),
      folderSymlinkOutside,
      folderOutsideRoot: false,
      otherSymlinksOutside,
      lockHolderPid: lock.holderPid,
      lockLive,
      now,
      staleAfterDays,
    });
    return { memoryDir, exists: true, folderIsSymlink, files, indexes, findings, lock, lockLive, warnings };
  }

  /** Drops cached analyses of files that are gone from this folder, so the cache does not grow forever. */
  private forgetGone(memoryDir: string, found: readonly FoundEntry[]): void {
    const present = new Set(found.map((e) => e.absolutePath));
    const prefix = memoryDir.endsWith(sep) ? memoryDir : memoryDir + sep;
    for (const path of this.texts.keys()) if (path.startsWith(prefix) && !present.has(path)) this.texts.delete(path);
  }

  /** Every `*.md` under the folder (Claude Code's recursive scan), symlinks noted and never followed out. */
  private async walk(memoryDir: string, realRoot: string, warnings: ItemWarning[]): Promise<FoundEntry[]> {
    const out: FoundEntry[] = [];
    await walkMemoryFolder(
      memoryDir,
      ({ name, absolutePath, relativePath, type }) => {
        if (!isMemoryFileName(name)) return;
        if (type === 'symlink') {
          const target = realpathOrNull(absolutePath);
          const targetStats = target ? statSync(target, { throwIfNoEntry: false }) : undefined;
          if (!target || !targetStats) {
            warnings.push(warning('broken-symlink', 'Broken symlink', absolutePath));
            return;
          }
          if (targetStats.isFile())
            out.push({ relativePath, absolutePath, stats: targetStats, isSymlink: true, outside: !isWithin(realRoot, target) });
        } else if (type === 'file') {
          const stats = lstatOrNull(absolutePath);
          if (stats?.isFile()) out.push({ relativePath, absolutePath, stats, isSymlink: false, outside: false });
        }
      },
      warnings,
    );
    return out;
  }

  private readIndexes(
    memoryDir: string,
    kind: 'project' | 'agent',
    found: readonly FoundEntry[],
    warnings: ItemWarning[],
  ): AnalyzedIndex[] {
    const places = kind === 'project' ? ['', 'team'] : [''];
    const out: AnalyzedIndex[] = [];
    for (const folder of places) {
      const relativePath = folder ? `${folder}/${INDEX_FILE_NAME}` : INDEX_FILE_NAME;
      const entry = found.find((e) => e.relativePath === relativePath);
      if (!entry || entry.outside) continue;
      if (entry.stats.size > MAX_INDEX_BYTES) {
        warnings.push(
          warning('unreadable', `${relativePath} is larger than ${MAX_INDEX_BYTES} bytes; it was not read`, entry.absolutePath),
        );
        continue;
      }
      let bytes: Buffer;
      try {
        bytes = readFileSync(entry.absolutePath);
      } catch (error) {
        warnings.push(warning('unreadable', `Cannot read ${relativePath}: ${describeFsError(error)}`, entry.absolutePath));
        continue;
      }
      const text = bytes.toString('utf8');
      out.push({ relativePath, folder, text, hash: contentHash(bytes), loaded: truncateEntrypoint(text) });
    }
    return out;
  }

  /** Whether a cited path is gone: not in the project, and not a memory file next to the one citing it either. */
  private citesMissing(
    path: string,
    projectRoot: string,
    memoryDir: string,
    citingFile: string,
    exists: (path: string) => boolean,
  ): boolean {
    if (isAbsolute(path)) {
      const normalised = normalize(path);
      return isWithin(projectRoot, normalised) && !exists(normalised);
    }
    if (exists(join(projectRoot, path))) return false;
    if (exists(join(memoryDir, path)) || exists(join(memoryDir, dirname(citingFile), path))) return false;
    return true;
  }

  private outsideText(): TextAnalysis {
    return {
      hash: null,
      readable: false,
      warning: null,
      variant: 'none',
      frontmatterError: null,
      name: null,
      description: null,
      type: null,
      rawType: null,
      originSessionId: null,
      relativeDates: [],
      citedPaths: [],
      fingerprint: null,
      recall: null,
      secrets: [],
    };
  }

  /**
   * The analysis of each topic file: from the cache while its size, mtime and inode are unchanged, else read. The
   * secret scan of the files read comes last, all in one (secretScan.ts), and is what the `checking` step waits on.
   */
  private async analyzeTexts(entries: readonly FoundEntry[], progress: ScanProgressSink | undefined): Promise<TextAnalysis[]> {
    const out: TextAnalysis[] = [];
    const unscanned: { readonly index: number; readonly key: string; readonly read: ReadText }[] = [];
    for (const [index, entry] of entries.entries()) {
      const key = `${entry.stats.size}:${entry.stats.mtimeMs}:${entry.stats.ino}:${entry.stats.ctimeMs}`;
      const cached = entry.outside ? null : this.texts.get(entry.absolutePath);
      if (entry.outside) out.push(this.outsideText());
      else if (cached?.key === key) out.push(cached.analysis);
      else {
        const read = this.readText(entry);
        out.push(read.analysis);
        if (read.checked === null) this.texts.set(entry.absolutePath, { key, analysis: read.analysis });
        else unscanned.push({ index, key, read });
      }
      await progress?.fileRead();
    }
    progress?.checking();
    const secrets = await this.secrets.scanMany(
      unscanned.map(({ read }) => ({ hash: read.analysis.hash ?? '', text: read.checked ?? '' })),
    );
    unscanned.forEach(({ index, key, read }, k) => {
      const analysis = { ...read.analysis, secrets: secrets[k] };
      this.texts.set(entries[index].absolutePath, { key, analysis });
      out[index] = analysis;
    });
    return out;
  }

  /** One file's text analysed, all but the secret scan: `checked` is the text that scan must read (null: nothing to scan). */
  private readText(entry: FoundEntry): ReadText {
    const unreadable = (code: ItemWarning['code'], message: string): ReadText => ({
      analysis: { ...this.outsideText(), warning: warning(code, message, entry.absolutePath) },
      checked: null,
    });
    if (entry.stats.size > MAX_TOPIC_FILE_BYTES)
      return unreadable('unreadable', `Larger than ${MAX_TOPIC_FILE_BYTES / 1024 / 1024} MB; not read`);
    let bytes: Buffer;
    try {
      bytes = readFileSync(entry.absolutePath);
    } catch (error) {
      return unreadable('unreadable', `Cannot read memory file: ${describeFsError(error)}`);
    }
    const hash = contentHash(bytes);
    if (bytes.includes(0)) {
      const binary = unreadable('binary-file', 'Not a text file: it holds binary data');
      return { analysis: { ...binary.analysis, hash }, checked: null };
    }
    let text: string;
    let invalidUtf8: ItemWarning | null = null;
    try {
      text = UTF8.decode(bytes);
    } catch {
      text = bytes.toString('utf8');
      invalidUtf8 = warning('invalid-utf8', 'Not valid UTF-8; shown with replacement characters and not editable', entry.absolutePath);
    }
    // TextDecoder drops a BOM; keep it so offsets match the file.
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf && text.charCodeAt(0) !== 0xfeff) text = `\uFEFF${text}`;
    const parsed = parseFrontmatter(text);
    const rawType = frontmatterField(parsed.data, 'type');
    const checked = text.length > MAX_CHECKED_CHARS ? text.slice(0, MAX_CHECKED_CHARS) : text;
    const partly =
      text.length > MAX_CHECKED_CHARS
        ? warning(
            'line-too-long',
            `Only the first ${MAX_CHECKED_CHARS / 1024} KB were checked for secrets and staleness`,
            entry.absolutePath,
          )
        : null;
    const body = checked.slice(Math.min(parsed.bodyStart, checked.length));
    const firstBodyLine = lineOf(text, parsed.bodyStart);
    const description = frontmatterField(parsed.data, 'description');
    const analysis: TextAnalysis = {
      hash,
      readable: true,
      warning: invalidUtf8 ?? partly,
      variant: parsed.variant,
      frontmatterError: parsed.error,
      name: frontmatterField(parsed.data, 'name'),
      description,
      type: asMemoryType(rawType),
      rawType: rawType !== null && asMemoryType(rawType) === null ? rawType : null,
      originSessionId: frontmatterField(parsed.data, 'originSessionId'),
      relativeDates: findRelativeDates(body, firstBodyLine),
      citedPaths: findCitedPaths(body, firstBodyLine),
      fingerprint: fingerprint(`${description ?? ''}\n${body}`),
      recall: recallCut(text),
      secrets: [],
    };
    return { analysis, checked };
  }
}
