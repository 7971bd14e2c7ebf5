import { CodedError } from '../../../shared/result';
import { contentHash } from '../fs/contentHash';
import { SecretScanner } from '../secrets/secretScan';

/** Claude Code's per-file limit for team memory (teamMemorySync `MAX_FILE_SIZE_BYTES`): a larger file is never synced. */
export const TEAM_MEMORY_MAX_FILE_BYTES = 250_000;

/** Files that leave this machine: team memory (synced to a server), a snapshot (committed to the repository). */
export interface SharedFiles {
  /** Their folder relative to the root, ending in '/', or '' for the whole root; compared without regard to case. */
  readonly under: string;
  readonly maxFileBytes: number | null;
  /** Who receives them, for the refusal: "team memory". */
  readonly sharedWith: string;
}

export function isShared(shared: SharedFiles, relativePath: string): boolean {
  // Case-insensitive: on macOS and Windows `TEAM/x.md` is the team folder too.
  return relativePath.toLowerCase().startsWith(shared.under.toLowerCase());
}

/**
 * Claude Code scans team memory before it uploads it (`teamMemSecretGuard`); this app refuses earlier, at the write,
 * whatever the path: nothing that looks like a secret goes into shared files, nor a file over their size limit.
 * Only the kind and line of a secret are reported, never the secret.
 */
export class SharedFileGuard {
  private readonly secrets = new SecretScanner();

  async refusal(relativePath: string, bytes: Buffer, shared: SharedFiles): Promise<CodedError | null> {
    if (shared.maxFileBytes !== null && bytes.length > shared.maxFileBytes)
      return new CodedError(
        'INVALID_INPUT',
        `${relativePath} is ${bytes.length} bytes; ${shared.sharedWith} takes files up to ${shared.maxFileBytes} bytes (Claude Code's limit)`,
      );
    const hits = await this.secrets.scan(contentHash(bytes), bytes.toString('utf8'));
    if (hits.length === 0) return null;
    return new CodedError(
      'FORBIDDEN',
      `${relativePath} would put what looks like a secret into ${shared.sharedWith}, which is shared; remove it first`,
      { secrets: hits.map(({ line, kind }) => ({ line, kind })) },
    );
  }
}
