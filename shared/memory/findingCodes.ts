/** Every finding a memory review can report, with how serious it is and what it means; shared by the UI and the CLI. */
export const FINDING_CODES = [
  'index.over-lines',
  'index.over-bytes',
  'index.long-line',
  'index.dangling-link',
  'index.orphan',
  'index.not-an-index',
  'scan.beyond-cap',
  'frontmatter.missing',
  'frontmatter.invalid-yaml',
  'frontmatter.unknown-type',
  'frontmatter.missing-description',
  'frontmatter.executable',
  'stale.age',
  'stale.relative-date',
  'stale.missing-path',
  'duplicate.near',
  'secret.detected',
  'symlink.outside',
  'folder.outside-root',
  'lock.held',
] as const;

export type FindingCode = (typeof FINDING_CODES)[number];

export type FindingSeverity = 'info' | 'warn' | 'error';

export interface FindingInfo {
  /** A short label for badges and filters. */
  readonly label: string;
  /** The usual severity; `secret.detected` is raised to error in team memory. */
  readonly severity: FindingSeverity;
  /** What it means and what to do, in a sentence. */
  readonly help: string;
}

export const FINDING_INFO: Readonly<Record<FindingCode, FindingInfo>> = {
  'index.over-lines': {
    label: 'index too long',
    severity: 'error',
    help: 'Claude Code loads only the first 200 lines of MEMORY.md; move detail into topic files.',
  },
  'index.over-bytes': {
    label: 'index too big',
    severity: 'error',
    help: 'Claude Code loads only the first 25,000 characters of MEMORY.md; shorten the entries.',
  },
  'index.long-line': {
    label: 'long index line',
    severity: 'warn',
    help: 'Index entries should be one line under about 150 characters; put the detail in the topic file.',
  },
  'index.dangling-link': {
    label: 'dangling link',
    severity: 'error',
    help: 'The index points at a topic file that does not exist.',
  },
  'index.orphan': {
    label: 'no pointer',
    severity: 'warn',
    help: 'No line of MEMORY.md points at this topic file, so the model only finds it by recall.',
  },
  'index.not-an-index': {
    label: 'not an index',
    severity: 'warn',
    help: 'MEMORY.md holds prose instead of one pointer line per memory; it is loaded into every session whole.',
  },
  'scan.beyond-cap': {
    label: 'never recalled',
    severity: 'warn',
    help: 'Claude Code only considers the 200 newest topic files for recall; this one is older than all of them.',
  },
  'frontmatter.missing': {
    label: 'no frontmatter',
    severity: 'warn',
    help: 'Without name, description and type the recall step has nothing but the file name to go on.',
  },
  'frontmatter.invalid-yaml': {
    label: 'broken frontmatter',
    severity: 'error',
    help: 'The frontmatter is not valid YAML, so Claude Code may read none of its fields.',
  },
  'frontmatter.unknown-type': {
    label: 'unknown type',
    severity: 'warn',
    help: 'The type is missing or not one of user, feedback, project, reference; Claude Code ignores it.',
  },
  'frontmatter.missing-description': {
    label: 'no description',
    severity: 'warn',
    help: 'The description is what the recall step uses to decide relevance.',
  },
  'frontmatter.executable': {
    label: 'executable frontmatter',
    severity: 'error',
    help: 'Frontmatter in a programming language (---js and the like) is refused and never run.',
  },
  'stale.age': {
    label: 'old project memory',
    severity: 'warn',
    help: 'Project memories decay fast; check that this one is still true.',
  },
  'stale.relative-date': {
    label: 'relative date',
    severity: 'warn',
    help: 'A date like "yesterday" or "next week" lost its meaning the day after it was written; use an absolute date.',
  },
  'stale.missing-path': {
    label: 'missing path',
    severity: 'warn',
    help: 'The memory cites a file that no longer exists in the project.',
  },
  'duplicate.near': {
    label: 'near duplicate',
    severity: 'warn',
    help: 'Two topic files say nearly the same thing; merge them.',
  },
  'secret.detected': {
    label: 'secret',
    severity: 'warn',
    help: 'The memory seems to hold a credential; remove it (in team memory it is shared with everyone).',
  },
  'symlink.outside': {
    label: 'symlink outside',
    severity: 'error',
    help: 'A symlink leads out of the memory folder; it is not read and nothing is written through it.',
  },
  'folder.outside-root': {
    label: 'outside its project',
    severity: 'error',
    help: 'The folder leads out of its project (or config root) through a symlink; it is not read, written or sent to a model.',
  },
  'lock.held': {
    label: 'dream running',
    severity: 'info',
    help: 'A dream (memory consolidation) holds the lock right now; edits wait until it is done.',
  },
};

export const SEVERITY_ORDER: Readonly<Record<FindingSeverity, number>> = { error: 0, warn: 1, info: 2 };
