/** What the engine hands the Memory review page: one memory folder with its findings and what the model sees. */
import type { ConsolidationLockStatus, FrontmatterVariant, MemoryType } from '../model/memory';
import type { ItemWarning } from '../model/warnings';
import type { FindingCode } from './findingCodes';
import type { MemoryFinding } from './findings';
import type { MemoryFolderRef } from './memoryFolderRef';
import type { EntrypointTruncation } from './modelView';

export interface ReviewedMemoryFile {
  /** Relative to the memory folder, forward slashes. */
  readonly relativePath: string;
  readonly name: string | null;
  readonly description: string | null;
  readonly type: MemoryType | null;
  readonly rawType: string | null;
  readonly originSessionId: string | null;
  readonly variant: FrontmatterVariant;
  readonly scope: 'private' | 'team';
  readonly mtime: string;
  readonly bytes: number;
  readonly readable: boolean;
  readonly isSymlink: boolean;
  /** Among the 200 newest topic files Claude Code offers for recall. */
  readonly inScan: boolean;
  /** The age text the model is given ('today', 'yesterday', 'N days ago'). */
  readonly age: string;
  /** The staleness caveat the model is given with this memory, or '' when it is a day old or newer. */
  readonly freshnessNote: string;
  /** The recall cut: how much of the file the model reads when it is recalled. */
  readonly recall: {
    readonly lines: number;
    readonly totalLines: number;
    readonly truncated: boolean;
    readonly reason: 'lines' | 'bytes' | null;
  };
  /** The line of the manifest the recall step chooses from. */
  readonly manifestLine: string;
  readonly findings: readonly FindingCode[];
}

export interface IndexView {
  readonly relativePath: string;
  /** The file exactly as it is on disk. */
  readonly rawText: string;
  readonly hash: string;
  /** What Claude Code loads of it into every session. */
  readonly loaded: EntrypointTruncation;
  /** chars / 4 of the loaded text: an estimate, not a tokenizer count. */
  readonly estimatedTokens: number;
}

export interface MemoryReview {
  readonly folder: MemoryFolderRef;
  /** What to call the folder in the UI: a project path, or an agent type and scope. */
  readonly title: string;
  readonly memoryDir: string;
  readonly exists: boolean;
  readonly projectPath: string | null;
  readonly index: IndexView | null;
  readonly teamIndex: IndexView | null;
  readonly files: readonly ReviewedMemoryFile[];
  readonly findings: readonly MemoryFinding[];
  readonly lock: ConsolidationLockStatus & { readonly live: boolean };
  /** Why this folder cannot be changed right now, or null when it can. */
  readonly readOnlyReason: string | null;
  readonly staleAfterDays: number;
  readonly warnings: readonly ItemWarning[];
}

export interface FrontmatterFieldView {
  readonly key: string;
  /** Where it sits: top level, or under `metadata:`. */
  readonly nested: boolean;
  readonly value: string;
}

export interface MemoryFileContent {
  readonly folder: MemoryFolderRef;
  readonly relativePath: string;
  /** The file's text, decoded as UTF-8; with its secrets masked (•) unless they were asked to be revealed. */
  readonly text: string;
  /** sha256 of the bytes on disk: the base of any later edit. */
  readonly hash: string;
  readonly mtime: string;
  readonly bytes: number;
  readonly variant: FrontmatterVariant;
  readonly frontmatterError: string | null;
  /** The raw frontmatter block (between the fences), or null. */
  readonly frontmatterText: string | null;
  readonly fields: readonly FrontmatterFieldView[];
  readonly body: string;
  /** Whether the file can be edited as text (UTF-8, no executable frontmatter). */
  readonly editable: boolean;
  readonly notEditableReason: string | null;
  /** The system reminder the model gets when this memory is recalled. */
  readonly recalledText: string;
  /**
   * How many secrets are masked in the texts above (0 when none, or when they were revealed). Every text here is
   * then masked alike: edit only a revealed copy, or the masks would be written back.
   */
  readonly secretsMasked: number;
}

/** What the UI gets back after a change: the change set to undo and the new hashes. */
export interface MemoryChangeResult {
  readonly changeSetId: string;
  readonly description: string;
  /** The file the change is about, as it is after it (null when it was deleted). */
  readonly relativePath: string | null;
  readonly hash: string | null;
}

/** Details of a CONFLICT: the file changed on disk since it was opened. */
export interface MemoryConflictDetails {
  readonly relativePath: string;
  readonly baseHash: string;
  /** What is on disk now (null when the file was deleted). */
  readonly currentHash: string | null;
  readonly currentText: string | null;
}
