/**
 * Which cure each finding has, in words for buttons, history and the CLI. A finding without an obvious cure (prose
 * in the index, broken YAML, a cited file that is gone) has none: it needs a person.
 */
import type { FindingCode } from '../findingCodes';
import type { MemoryFinding } from '../findings';
import { isIndexPath, type MemoryFix, type MemoryFixKind } from './memoryFix';

export interface FindingCure {
  /** The button's words. */
  readonly label: string;
  readonly fix: MemoryFix;
  /** A bigger change (a merge, moving the overflow) the person reviews as a proposal before it is written. */
  readonly proposal: boolean;
}

/** Finding codes with at least one cure, and the cure `ccmem doctor --fix CODE` applies unless `--cure` names another. */
export const DEFAULT_CURES: Readonly<Partial<Record<FindingCode, MemoryFixKind>>> = {
  'index.orphan': 'add-pointer',
  'index.dangling-link': 'remove-pointer',
  'index.long-line': 'shorten-line',
  'index.over-lines': 'move-overflow',
  'index.over-bytes': 'move-overflow',
  'duplicate.near': 'merge-duplicates',
  'secret.detected': 'mask-secret',
  'frontmatter.missing': 'add-frontmatter',
  'frontmatter.missing-description': 'fill-description',
  'frontmatter.unknown-type': 'fill-type',
  'stale.relative-date': 'absolute-date',
  'scan.beyond-cap': 'prune',
};

const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const squashed = (name: string) =>
  name
    .toLowerCase()
    .replace(/\.md$/, '')
    .replace(/[^a-z0-9]+/g, '');

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = saved;
    }
  }
  return row[b.length];
}

/**
 * The file a dangling link most likely meant: one with the same name in another folder, or a name that differs
 * only in case, separators or a typo or two. Null when there is none, or more than one equally likely.
 */
export function retargetCandidate(target: string, files: readonly string[]): string | null {
  const wanted = squashed(basename(target));
  if (wanted === '') return null;
  const pick = (matches: readonly string[]) => (matches.length === 1 ? matches[0] : null);
  const sameName = files.filter((file) => file !== target && basename(file).toLowerCase() === basename(target).toLowerCase());
  if (sameName.length > 0) return pick(sameName);
  const sameWords = files.filter((file) => file !== target && squashed(basename(file)) === wanted);
  if (sameWords.length > 0) return pick(sameWords);
  const limit = Math.max(1, Math.floor(wanted.length / 6));
  let best = Infinity;
  let found: string[] = [];
  for (const file of files) {
    const distance = editDistance(squashed(basename(file)), wanted);
    if (distance > limit || distance > best) continue;
    if (distance < best) found = [];
    best = distance;
    found.push(file);
  }
  return pick(found);
}

/** The cures of one finding; `files` are the folder's topic files (for a dangling link's likely target). */
export function curesFor(finding: MemoryFinding, files: readonly string[]): FindingCure[] {
  const file = finding.file;
  const line = finding.line;
  if (file === null) return [];
  const index = isIndexPath(file) ? file : null;
  switch (finding.code) {
    case 'index.orphan':
      return [{ label: 'Add a pointer', fix: { kind: 'add-pointer', file }, proposal: false }];
    case 'index.dangling-link': {
      const target = finding.related;
      if (target === null || line === null || index === null) return [];
      const to = retargetCandidate(target, files);
      return [
        { label: 'Remove the link', fix: { kind: 'remove-pointer', index, line, target }, proposal: false },
        ...(to
          ? [{ label: `Point it at ${to}`, fix: { kind: 'retarget-pointer', index, line, target, to } as const, proposal: false }]
          : []),
      ];
    }
    case 'index.long-line':
      return line === null || index === null
        ? []
        : [{ label: 'Shorten the line', fix: { kind: 'shorten-line', index, line }, proposal: false }];
    case 'index.over-lines':
    case 'index.over-bytes':
      return index === null
        ? []
        : [
            { label: 'Move the overflow into a topic file', fix: { kind: 'move-overflow', index }, proposal: true },
            { label: 'Trim the overflow', fix: { kind: 'trim-overflow', index }, proposal: true },
          ];
    case 'duplicate.near':
      return finding.related === null
        ? []
        : [
            {
              label: `Merge ${finding.related} into this one`,
              fix: { kind: 'merge-duplicates', keep: file, drop: finding.related },
              proposal: true,
            },
          ];
    case 'secret.detected':
      return line === null
        ? []
        : [
            { label: 'Mask the secret', fix: { kind: 'mask-secret', file, line }, proposal: false },
            { label: 'Remove the line', fix: { kind: 'remove-secret-line', file, line }, proposal: false },
          ];
    case 'frontmatter.missing':
      return [{ label: 'Add frontmatter', fix: { kind: 'add-frontmatter', file }, proposal: false }];
    case 'frontmatter.missing-description':
      return [{ label: 'Fill in a description', fix: { kind: 'fill-description', file }, proposal: false }];
    case 'frontmatter.unknown-type':
      return [{ label: 'Set the type', fix: { kind: 'fill-type', file }, proposal: false }];
    case 'stale.relative-date':
      return line === null ? [] : [{ label: 'Use an absolute date', fix: { kind: 'absolute-date', file, line }, proposal: false }];
    case 'scan.beyond-cap':
      return [{ label: 'Prune it', fix: { kind: 'prune', file }, proposal: false }];
    default:
      return [];
  }
}

/** What a fix does, in a few words. */
export function describeFix(fix: MemoryFix): string {
  switch (fix.kind) {
    case 'add-pointer':
      return `Added a pointer to ${fix.file}`;
    case 'remove-pointer':
      return `Removed the link to ${fix.target} from ${fix.index}`;
    case 'retarget-pointer':
      return `Pointed the link to ${fix.target} at ${fix.to}`;
    case 'shorten-line':
      return `Shortened line ${fix.line} of ${fix.index}`;
    case 'move-overflow':
      return `Moved the overflow of ${fix.index} into ${fix.into ?? 'a topic file'}`;
    case 'trim-overflow':
      return `Trimmed the overflow of ${fix.index}`;
    case 'merge-duplicates':
      return `Merged ${fix.drop} into ${fix.keep}`;
    case 'mask-secret':
      return `Masked a secret in ${fix.file}`;
    case 'remove-secret-line':
      return `Removed a secret's line from ${fix.file}`;
    case 'add-frontmatter':
      return `Added frontmatter to ${fix.file}`;
    case 'fill-description':
      return `Filled in the description of ${fix.file}`;
    case 'fill-type':
      return `Set the type of ${fix.file}`;
    case 'absolute-date':
      return `Made the dates on line ${fix.line} of ${fix.file} absolute`;
    case 'prune':
      return `Pruned ${fix.file}`;
  }
}

const MANY: Readonly<Record<MemoryFixKind, (count: number) => string>> = {
  'add-pointer': (n) => `Added pointers to ${n} files`,
  'remove-pointer': (n) => `Removed ${n} dangling links`,
  'retarget-pointer': (n) => `Fixed ${n} dangling links`,
  'shorten-line': (n) => `Shortened ${n} index lines`,
  'move-overflow': (n) => `Moved the overflow of ${n} indexes`,
  'trim-overflow': (n) => `Trimmed the overflow of ${n} indexes`,
  'merge-duplicates': (n) => `Merged ${n} pairs of near-duplicates`,
  'mask-secret': (n) => `Masked secrets on ${n} lines`,
  'remove-secret-line': (n) => `Removed ${n} lines holding secrets`,
  'add-frontmatter': (n) => `Added frontmatter to ${n} files`,
  'fill-description': (n) => `Filled in ${n} descriptions`,
  'fill-type': (n) => `Set the type of ${n} files`,
  'absolute-date': (n) => `Made the dates on ${n} lines absolute`,
  prune: (n) => `Pruned ${n} files`,
};

/** One line for the history and the undo banner: the fix itself when there is one, else a count per kind. */
export function summarizeFixes(fixes: readonly MemoryFix[]): string {
  if (fixes.length === 0) return 'Nothing to change';
  if (fixes.length === 1) return describeFix(fixes[0]);
  const counts = new Map<MemoryFixKind, number>();
  for (const fix of fixes) counts.set(fix.kind, (counts.get(fix.kind) ?? 0) + 1);
  return [...counts]
    .map(([kind, count]) => (count === 1 ? describeFix(fixes.find((f) => f.kind === kind) as MemoryFix) : MANY[kind](count)))
    .join('; ');
}
