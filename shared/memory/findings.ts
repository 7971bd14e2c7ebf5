/**
 * The memory review's findings, computed from facts the engine gathered about one memory folder.
 * Pure: the same facts give the same findings in the UI, the CLI and the benchmark.
 */
import type { FrontmatterVariant, MemoryType } from '../model/memory';
import { FINDING_INFO, SEVERITY_ORDER, type FindingCode, type FindingSeverity } from './findingCodes';
import { parseIndex } from './memoryIndex';
import { filesInScan, memoryAgeDays, truncateEntrypoint, MAX_ENTRYPOINT_BYTES, MAX_ENTRYPOINT_LINES, MAX_MEMORY_FILES } from './modelView';
import { findNearDuplicates, type Fingerprint } from './nearDuplicates';
import { relativeDateOn, type CitedPath, type TextHit } from './staleness';

/** Index lines longer than this are flagged (Claude Code's dream prompt asks for ~150). */
export const MAX_INDEX_LINE_CHARS = 150;
export const DEFAULT_STALE_AFTER_DAYS = 30;
/** An index needs at least this many content lines before it can be called prose. */
const MIN_LINES_FOR_PROSE = 3;

export interface MemoryFinding {
  readonly code: FindingCode;
  readonly severity: FindingSeverity;
  /** Relative to the memory folder, or null for the folder as a whole. */
  readonly file: string | null;
  readonly line: number | null;
  readonly message: string;
  /** The other file of a near-duplicate pair, or the missing file a dangling link points at. */
  readonly related: string | null;
}

export interface SecretHit {
  readonly line: number;
  /** What kind of secret, as a short rule name (`github`, `aws`, `basicauth`…). */
  readonly kind: string;
  readonly length: number;
  /** Where the secret starts in the scanned text (UTF-16 offset), when the rule says; masking uses it. */
  readonly start?: number;
}

export interface FileFacts {
  readonly relativePath: string;
  readonly scope: 'private' | 'team';
  readonly mtimeMs: number;
  /** False when the text could not be read (unreadable, binary, or a symlink leading outside). */
  readonly readable: boolean;
  readonly symlinkOutside: boolean;
  readonly variant: FrontmatterVariant;
  readonly frontmatterError: string | null;
  readonly description: string | null;
  readonly type: MemoryType | null;
  /** The raw `type` value when it is not one of the four known types. */
  readonly rawType: string | null;
  readonly relativeDates: readonly TextHit[];
  readonly missingPaths: readonly CitedPath[];
  readonly secrets: readonly SecretHit[];
  readonly fingerprint: Fingerprint | null;
}

export interface IndexFacts {
  /** `MEMORY.md` or `team/MEMORY.md`. */
  readonly relativePath: string;
  /** The folder the index lives in, relative to the memory folder: '' or 'team'. */
  readonly folder: string;
  readonly text: string;
}

export interface FolderFacts {
  readonly kind: 'project' | 'agent';
  readonly files: readonly FileFacts[];
  readonly indexes: readonly IndexFacts[];
  /** Relative paths of every `*.md` that exists in the folder, including ones that could not be read. */
  readonly existingPaths: ReadonlySet<string>;
  readonly folderSymlinkOutside: boolean;
  /**
   * The folder lies, through a symlink, outside the project (or config root) it belongs to: an agent memory a
   * repository pointed elsewhere. Nothing in it was read; `files` and `indexes` are empty.
   */
  readonly folderOutsideRoot: boolean;
  /** Other entries (an index, a folder) that are symlinks leading outside the memory folder. */
  readonly otherSymlinksOutside: readonly string[];
  readonly lockHolderPid: number | null;
  readonly lockLive: boolean;
  readonly now: number;
  readonly staleAfterDays: number;
}

const SECRET_KINDS: Readonly<Record<string, string>> = {
  aws: 'an AWS credential',
  gcp: 'a Google Cloud credential',
  github: 'a GitHub token',
  slack: 'a Slack token',
  npm: 'an npm token',
  basicauth: 'a password in a URL',
  privatekey: 'a private key',
  openai: 'an OpenAI API key',
  anthropic: 'an Anthropic API key',
  sendgrid: 'a SendGrid API key',
  shopify: 'a Shopify token',
  linear: 'a Linear API key',
  '1password': 'a 1Password secret',
  'database-connection-string': 'a database password',
  filter_secrets: 'a secret',
};

function describeSecret(kind: string): string {
  return SECRET_KINDS[kind] ?? `a secret (${kind})`;
}

function finding(code: FindingCode, file: string | null, line: number | null, message: string, extra: Partial<MemoryFinding> = {}) {
  return { code, severity: FINDING_INFO[code].severity, file, line, message, related: null, ...extra } satisfies MemoryFinding;
}

function indexFindings(index: IndexFacts, existing: ReadonlySet<string>): MemoryFinding[] {
  const out: MemoryFinding[] = [];
  const loaded = truncateEntrypoint(index.text);
  const file = index.relativePath;
  if (loaded.wasLineTruncated)
    out.push(
      finding(
        'index.over-lines',
        file,
        MAX_ENTRYPOINT_LINES + 1,
        `${file} has ${loaded.lineCount} lines; Claude Code loads the first ${MAX_ENTRYPOINT_LINES}`,
      ),
    );
  if (loaded.wasByteTruncated)
    out.push(
      finding(
        'index.over-bytes',
        file,
        null,
        `${file} has ${loaded.charCount.toLocaleString('en-US')} characters; Claude Code loads at most ${MAX_ENTRYPOINT_BYTES.toLocaleString('en-US')}`,
      ),
    );
  const parsed = parseIndex(index.text, index.folder);
  for (const line of parsed.lines) {
    if (line.text.length > MAX_INDEX_LINE_CHARS)
      out.push(
        finding(
          'index.long-line',
          file,
          line.line,
          `Line ${line.line} is ${line.text.length} characters long (keep under ${MAX_INDEX_LINE_CHARS})`,
        ),
      );
  }
  for (const link of parsed.links) {
    if (link.resolved === null || existing.has(link.resolved) || link.resolved.endsWith('MEMORY.md')) continue;
    out.push(
      finding('index.dangling-link', file, link.line, `Line ${link.line} points at ${link.resolved}, which does not exist`, {
        related: link.resolved,
      }),
    );
  }
  const content = parsed.lines.filter((l) => l.kind === 'pointer' || l.kind === 'prose');
  const prose = content.filter((l) => l.kind === 'prose');
  if (content.length >= MIN_LINES_FOR_PROSE && prose.length > content.length / 2)
    out.push(
      finding(
        'index.not-an-index',
        file,
        prose[0].line,
        `${prose.length} of ${content.length} lines of ${file} are prose, not "- [Title](file.md) — hook" pointers`,
      ),
    );
  return out;
}

/** Files some index line links to, as memory-folder-relative paths. */
function pointedAt(indexes: readonly IndexFacts[]): Set<string> {
  const out = new Set<string>();
  for (const index of indexes) for (const link of parseIndex(index.text, index.folder).links) if (link.resolved) out.add(link.resolved);
  return out;
}

function frontmatterFindings(file: FileFacts): MemoryFinding[] {
  const path = file.relativePath;
  switch (file.variant) {
    case 'none':
      return [finding('frontmatter.missing', path, 1, 'No frontmatter: no name, description or type')];
    case 'executable':
      return [finding('frontmatter.executable', path, 1, file.frontmatterError ?? 'Executable frontmatter is refused and never run')];
    case 'invalid':
      return [finding('frontmatter.invalid-yaml', path, 1, file.frontmatterError ?? 'The frontmatter is not valid YAML')];
    case 'flat':
    case 'nested':
    case 'nested-node-type': {
      const out: MemoryFinding[] = [];
      if (file.type === null)
        out.push(
          finding(
            'frontmatter.unknown-type',
            path,
            1,
            file.rawType
              ? `Type "${file.rawType}" is not one of user, feedback, project, reference`
              : 'No type (user, feedback, project or reference)',
          ),
        );
      if (!file.description?.trim()) out.push(finding('frontmatter.missing-description', path, 1, 'No description'));
      return out;
    }
  }
}

function fileFindings(file: FileFacts, facts: FolderFacts, inScan: boolean, pointed: ReadonlySet<string>): MemoryFinding[] {
  const path = file.relativePath;
  if (file.symlinkOutside) return [finding('symlink.outside', path, null, `${path} is a symlink that leads outside the memory folder`)];
  const out: MemoryFinding[] = [];
  if (!pointed.has(path)) {
    const index = file.scope === 'team' ? 'team/MEMORY.md' : 'MEMORY.md';
    out.push(finding('index.orphan', path, null, `No line of ${index} points at ${path}`));
  }
  if (!inScan)
    out.push(finding('scan.beyond-cap', path, null, `Older than the ${MAX_MEMORY_FILES} newest topic files, so never offered for recall`));
  if (!file.readable) return out;
  out.push(...frontmatterFindings(file));
  const ageDays = memoryAgeDays(file.mtimeMs, facts.now);
  if (file.type === 'project' && ageDays > facts.staleAfterDays)
    out.push(finding('stale.age', path, null, `Project memory last changed ${ageDays} days ago (older than ${facts.staleAfterDays})`));
  for (const hit of file.relativeDates)
    out.push(
      finding(
        'stale.relative-date',
        path,
        hit.line,
        `"${relativeDateOn(hit.text) ?? 'relative date'}" on line ${hit.line} has no absolute date`,
      ),
    );
  for (const cited of file.missingPaths)
    out.push(
      finding(
        'stale.missing-path',
        path,
        cited.line,
        `Cites ${cited.path}${cited.lineRef !== null ? `:${cited.lineRef}` : ''}, which no longer exists in the project`,
      ),
    );
  for (const secret of file.secrets)
    out.push(
      finding(
        'secret.detected',
        path,
        secret.line,
        `Line ${secret.line} seems to hold ${describeSecret(secret.kind)} (${secret.length} characters, not shown)`,
        {
          severity: file.scope === 'team' ? 'error' : 'warn',
        },
      ),
    );
  return out;
}

function byPlace(a: MemoryFinding, b: MemoryFinding): number {
  if (a.file !== b.file) return a.file === null ? -1 : b.file === null ? 1 : a.file.localeCompare(b.file);
  return (a.line ?? 0) - (b.line ?? 0) || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.code.localeCompare(b.code);
}

/** Every finding of one memory folder, sorted by file and line (folder-wide ones first). */
export function computeFindings(facts: FolderFacts): MemoryFinding[] {
  const out: MemoryFinding[] = [];
  if (facts.folderSymlinkOutside)
    out.push(
      finding('symlink.outside', null, null, 'The memory folder itself is a symlink that leads elsewhere; nothing is written through it'),
    );
  if (facts.folderOutsideRoot)
    out.push(
      finding(
        'folder.outside-root',
        null,
        null,
        'The folder leads outside its project (or config root) through a symlink; it is not read, written or sent to a model',
      ),
    );
  for (const path of facts.otherSymlinksOutside)
    out.push(finding('symlink.outside', path, null, `${path} is a symlink that leads outside the memory folder; it is not read`));
  if (facts.lockLive)
    out.push(
      finding(
        'lock.held',
        null,
        null,
        `A dream is consolidating this memory right now (process ${facts.lockHolderPid ?? '?'}); edits are refused until it ends`,
      ),
    );
  for (const index of facts.indexes) out.push(...indexFindings(index, facts.existingPaths));
  const inScan = filesInScan(facts.files);
  const pointed = pointedAt(facts.indexes);
  for (const file of facts.files) out.push(...fileFindings(file, facts, inScan.has(file.relativePath), pointed));
  const printable = facts.files.filter((f) => f.readable && f.fingerprint !== null);
  for (const pair of findNearDuplicates(printable.map((f) => ({ id: f.relativePath, fingerprint: f.fingerprint as Fingerprint })))) {
    const percent = Math.round(pair.similarity * 100);
    out.push(finding('duplicate.near', pair.a, null, `Nearly the same as ${pair.b} (${percent}% alike)`, { related: pair.b }));
    out.push(finding('duplicate.near', pair.b, null, `Nearly the same as ${pair.a} (${percent}% alike)`, { related: pair.a }));
  }
  return out.sort(byPlace);
}

/** The distinct codes found on one file, in the order they appear. */
export function codesForFile(findings: readonly MemoryFinding[], relativePath: string): FindingCode[] {
  return [...new Set(findings.filter((f) => f.file === relativePath).map((f) => f.code))];
}
