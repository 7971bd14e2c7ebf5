/**
 * The cures the app offers for memory findings, as data: what the UI and `ccmem doctor --fix` ask the engine to
 * plan and apply. Paths are relative to the memory folder; `index` is `MEMORY.md` or `team/MEMORY.md`; a `line` is
 * 1-based in the file as it was when the finding was made. Optional values are filled in by the planner (a
 * suggested description, the file's date), and the plan hands the fixes back with them set, so applying it writes
 * exactly what was shown.
 */
import type { MemoryType } from '../../model/memory';

export const MEMORY_FIX_KINDS = [
  'add-pointer',
  'remove-pointer',
  'retarget-pointer',
  'shorten-line',
  'move-overflow',
  'trim-overflow',
  'merge-duplicates',
  'mask-secret',
  'remove-secret-line',
  'add-frontmatter',
  'fill-description',
  'fill-type',
  'absolute-date',
  'prune',
] as const;

export type MemoryFixKind = (typeof MEMORY_FIX_KINDS)[number];

/** The indexes Claude Code loads: a project's (or agent's) MEMORY.md, and a project's team index. */
export type IndexPath = 'MEMORY.md' | 'team/MEMORY.md';

export function isIndexPath(path: string | null): path is IndexPath {
  return path === 'MEMORY.md' || path === 'team/MEMORY.md';
}

export type MemoryFix =
  /** An orphan topic file gets its pointer line at the end of its index. */
  | { readonly kind: 'add-pointer'; readonly file: string }
  /** A dangling link goes: its line when that is all the line points at, else only the link (its title stays). */
  | { readonly kind: 'remove-pointer'; readonly index: IndexPath; readonly line: number; readonly target: string }
  /** A dangling link is pointed at a file that exists. */
  | { readonly kind: 'retarget-pointer'; readonly index: IndexPath; readonly line: number; readonly target: string; readonly to: string }
  /** An index line over the length limit is cut at a word, keeping its link. */
  | { readonly kind: 'shorten-line'; readonly index: IndexPath; readonly line: number }
  /** Index lines past what Claude Code loads move into a topic file, with one pointer to it left in their place. */
  | { readonly kind: 'move-overflow'; readonly index: IndexPath; readonly into?: string }
  /** Index lines past what Claude Code loads are dropped (history keeps them). */
  | { readonly kind: 'trim-overflow'; readonly index: IndexPath }
  /** Two near-duplicates become one: `keep` gains what only `drop` says, `drop` goes, its pointers follow. */
  | { readonly kind: 'merge-duplicates'; readonly keep: string; readonly drop: string }
  /** The secrets found on a line are replaced by a mark. */
  | { readonly kind: 'mask-secret'; readonly file: string; readonly line: number }
  /** The line (or lines, for a key block) holding a secret is removed. */
  | { readonly kind: 'remove-secret-line'; readonly file: string; readonly line: number }
  /** A file without frontmatter gets name, description and type. */
  | {
      readonly kind: 'add-frontmatter';
      readonly file: string;
      readonly name?: string;
      readonly description?: string;
      readonly type?: MemoryType;
    }
  | { readonly kind: 'fill-description'; readonly file: string; readonly value?: string }
  | { readonly kind: 'fill-type'; readonly file: string; readonly value?: MemoryType }
  /** Relative dates on a line ("yesterday", "next week") become absolute ones, counted from `date` (the file's, YYYY-MM-DD). */
  | { readonly kind: 'absolute-date'; readonly file: string; readonly line: number; readonly date?: string }
  /** The file is deleted with its pointer lines (history keeps both). */
  | { readonly kind: 'prune'; readonly file: string };

/** What became of one asked-for fix. */
export interface FixOutcome {
  readonly fix: MemoryFix;
  /** False when it had nothing to do or could not be done; `note` says why. */
  readonly applied: boolean;
  readonly note: string | null;
}

/** One file a plan changes, as shown before it is written. */
export interface PlannedFileChange {
  readonly path: string;
  readonly change: 'add' | 'modify' | 'delete';
  /** The version the plan was made from (null: the file is new); applying it anywhere else is a CONFLICT. */
  readonly baseHash: string | null;
  /** The texts, with any secret masked (•), for the diff; null on the side where the file does not exist, or when too large to send. */
  readonly before: string | null;
  readonly after: string | null;
  /** False when the texts were left out to keep a big plan small (its line counts still say what changes). */
  readonly shown: boolean;
  readonly linesAdded: number;
  readonly linesRemoved: number;
}

/** A planned cure, to review before anything is written. */
export interface MemoryFixPlan {
  /** The fixes with every value the planner chose filled in: send these back to apply exactly this plan. */
  readonly fixes: readonly MemoryFix[];
  readonly outcomes: readonly FixOutcome[];
  readonly files: readonly PlannedFileChange[];
  /** Every file read to make the plan and its hash (null: absent): the bases to apply against. */
  readonly bases: readonly { readonly path: string; readonly hash: string | null }[];
  /** One line for the history and the undo banner. */
  readonly summary: string;
  /** Why it cannot be applied as it is (a secret going into team memory, a file that cannot be changed safely), or null. */
  readonly refusal: string | null;
}
