import type { ItemWarning } from './warnings';

export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export function asMemoryType(value: unknown): MemoryType | null {
  return typeof value === 'string' && (MEMORY_TYPES as readonly string[]).includes(value) ? (value as MemoryType) : null;
}

/** The three frontmatter shapes Claude Code has written over time, plus the cases with none or a broken one. */
export type FrontmatterVariant = 'flat' | 'nested' | 'nested-node-type' | 'none' | 'invalid' | 'executable';

export interface MemoryFileSummary {
  /** Path relative to the memory folder, with forward slashes. */
  readonly relativePath: string;
  readonly absolutePath: string;
  readonly name: string | null;
  readonly description: string | null;
  readonly type: MemoryType | null;
  /** The raw `type` value when it is not one of the four known types. */
  readonly rawType: string | null;
  readonly originSessionId: string | null;
  readonly variant: FrontmatterVariant;
  readonly scope: 'private' | 'team';
  readonly mtime: string;
  readonly bytes: number;
  readonly warnings: readonly ItemWarning[];
}

export interface ConsolidationLockStatus {
  readonly exists: boolean;
  /** The lock's mtime: when the last consolidation started (Claude Code's lastConsolidatedAt). */
  readonly lastConsolidatedAt: string | null;
  readonly holderPid: number | null;
  /** Whether the holder process runs on this machine; null when there is no holder or it cannot be told. */
  readonly holderAlive: boolean | null;
}

export interface MemoryFolderListing {
  readonly memoryDir: string | null;
  readonly exists: boolean;
  /** MEMORY.md exactly as it is on disk, or null when there is none. */
  readonly indexText: string | null;
  readonly files: readonly MemoryFileSummary[];
  readonly lock: ConsolidationLockStatus;
  readonly warnings: readonly ItemWarning[];
}
