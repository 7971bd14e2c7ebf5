import type { RollbackConflict } from './history/historyModel';
import type { MemoryConflictDetails } from './memory/memoryReview';
import type { SnapshotNewerWarning, SnapshotSecret } from './model/agents';

/** A terminal could not be opened for a session: the command to copy and run by hand instead. */
export interface CopyCommandDetails {
  readonly command: string;
}

/** Claude Code holds the consolidation lock of the memory a job wanted to change. */
export interface LockHeldDetails {
  readonly holderPid: number | null;
}

/** A snapshot action would overwrite a snapshot newer than what the local memory last synced from. */
export interface NewerSnapshotDetails {
  readonly newerSnapshot: SnapshotNewerWarning;
}

/** A restore or revert is refused: the files whose state is not what the plan expected. */
export interface RollbackConflictDetails {
  readonly conflicts: readonly RollbackConflict[];
}

/** A backup import is refused: this file changed since the preview. */
export interface ImportConflictDetails {
  readonly path: string;
}

/** A snapshot is refused because these files hold what looks like a secret. */
export interface SnapshotSecretsDetails {
  readonly secrets: readonly SnapshotSecret[];
}

/** A write into a shared file (team memory) is refused: where the secrets are, never what they are. */
export interface SharedFileSecretsDetails {
  readonly secrets: readonly { readonly line: number; readonly kind: string }[];
}

/**
 * What each error code may carry besides its message; `never` where the engine sends no details. Typed here, next to
 * the codes, so the renderer reads them without casting.
 */
export interface ErrorDetailsByCode {
  readonly INVALID_INPUT: never;
  readonly NOT_FOUND: CopyCommandDetails;
  readonly OUTSIDE_ROOT: never;
  readonly CONFLICT: MemoryConflictDetails | NewerSnapshotDetails | RollbackConflictDetails | ImportConflictDetails;
  readonly LOCK_HELD: LockHeldDetails;
  readonly READ_ONLY: never;
  readonly FORBIDDEN: SnapshotSecretsDetails | SharedFileSecretsDetails;
  readonly UNSUPPORTED: CopyCommandDetails;
  readonly INTERNAL: never;
  readonly UNAVAILABLE: never;
}
