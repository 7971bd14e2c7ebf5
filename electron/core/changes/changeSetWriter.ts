import { CodedError } from '../../../shared/result';
import { ABSENT, contentHash } from '../fs/contentHash';
import { isReallyWithin } from '../fs/pathContainment';
import { conflictError, SafeWriter } from '../fs/safeWriter';
import { isShared, SharedFileGuard } from './sharedFileGuard';
import { changeSetNotesLog, type ChangeSetNote } from './changeSetNotes';
import type { HistoryCause, HistoryStore, NewHistoryEntry } from './HistoryStore';
import type { JsonlLog } from './jsonlLog';
import { nameRefusal, type WriteRoot } from './writeRoot';
import { Emitter } from '../events';

/** The causes of a change this app makes itself: an edit (editor, restore, import, snapshot) or an applied job. */
export type AppCause = Extract<HistoryCause, 'app-edit' | 'dream' | 'extraction'>;

/** One file of a change set. */
export interface FileChange {
  /** Relative to the root, canonical: forward slashes, no empty, `.` or `..` part. */
  readonly path: string;
  /** The version the change was based on: its sha256, or null when the file must not exist. Anything else on disk is a CONFLICT. */
  readonly base: string | null;
  /** The new content, or null to delete the file. */
  readonly after: Uint8Array | string | null;
  /** The mode of a file this change creates (a renamed file's); a file that exists keeps its own. */
  readonly mode?: number;
  /** False for bookkeeping kept out of history (a snapshot's JSON markers); the guards apply all the same. */
  readonly journaled?: boolean;
}

export interface ChangeSetRequest {
  readonly root: WriteRoot;
  /** Written in this order. */
  readonly changes: readonly FileChange[];
  readonly cause: AppCause;
  /** What the change is, in words, for history views. */
  readonly summary: string;
  /** The session the change came from, when there is one. */
  readonly sessionId?: string | null;
  /**
   * `stop` (the default): every file is checked before any is written, a refusal writes nothing, and a write that
   * fails ends the change set there (what landed is journaled, then the error is thrown). `skip`: a file that is
   * refused or fails is reported in `failed` and the others go on (applying a job's proposals).
   */
  readonly failures?: 'stop' | 'skip';
}

export type WrittenFileEvent = 'add' | 'change' | 'unlink';

export interface WrittenFile {
  readonly path: string;
  readonly event: WrittenFileEvent;
  /** The new version's sha256, null for a deletion. */
  readonly hash: string | null;
}

export interface FailedFile {
  readonly path: string;
  readonly error: CodedError;
}

export interface ChangeSetOutcome {
  /** The history change set, or null when nothing journaled landed. */
  readonly changeSetId: string | null;
  readonly written: readonly WrittenFile[];
  readonly failed: readonly FailedFile[];
}

/** The one event of a change set, published once after it landed (also a partial one). */
export interface WrittenChangeSet extends ChangeSetOutcome {
  readonly root: WriteRoot;
  readonly cause: AppCause;
}

export interface ChangeSetWriterOptions {
  readonly history: HistoryStore;
  /** Told just before each file lands, so the watchers do not take this app's write for a foreign one. */
  readonly onOwnWrite?: (absolutePath: string) => void;
  readonly now?: () => number;
  /** The file mechanics; by default a safe writer that keeps displaced versions in `history`. */
  readonly files?: SafeWriter;
}

/** The file as a change would find it. */
export interface CurrentVersion {
  readonly bytes: Buffer | null;
  readonly hash: string | null;
  readonly mode: number | null;
}

interface PreparedChange {
  readonly path: string;
  readonly base: string | null;
  readonly after: Buffer | null;
  readonly mode: number | undefined;
  readonly journaled: boolean;
  readonly current: CurrentVersion;
}

const ABSENT_VERSION: CurrentVersion = { bytes: null, hash: null, mode: null };

function asCoded(error: unknown): CodedError {
  if (error instanceof CodedError) return error;
  return new CodedError('INTERNAL', error instanceof Error ? error.message : String(error));
}

/**
 * The one path every memory change of this app takes: the editor's, restore and revert, backup import, applied
 * dreams and extractions, snapshot actions — and any later writer of a file the app changes. For each change set
 * it checks, before anything is written: the root really lies inside its boundary (by real path, through any
 * symlink), every name is one the root takes and none is the dream lock, shared files (team memory) get no secret
 * and nothing over their size limit, and every file is still the version the change was based on. Then it stores
 * both versions of every file in history, writes each atomically through the safe writer (which refuses symlinks,
 * honours a live dream's `.consolidate-lock` and keeps a version another program wrote meanwhile in history),
 * journals what landed as one change set with its note, and publishes one event.
 */
export class ChangeSetWriter {
  readonly history: HistoryStore;
  private readonly notes: JsonlLog<ChangeSetNote>;
  private readonly files: SafeWriter;
  private readonly guard = new SharedFileGuard();
  private readonly writeEmitter = new Emitter<WrittenChangeSet>();
  private readonly now: () => number;

  constructor(options: ChangeSetWriterOptions) {
    this.history = options.history;
    this.now = options.now ?? Date.now;
    this.notes = changeSetNotesLog(options.history.dir);
    this.files =
      options.files ??
      new SafeWriter({
        onOwnWrite: options.onOwnWrite,
        now: options.now,
        // Which names a root takes is decided here (see `nameRefusal`); the safe writer still refuses the lock file.
        alsoWrites: () => true,
        keepDisplaced: (bytes) => options.history.putBlob(bytes),
      });
  }

  /** Called once per change set that wrote anything; `apply` resolves after every listener has settled. */
  onDidWrite(listener: (written: WrittenChangeSet) => void | Promise<void>): () => void {
    return this.writeEmitter.event(listener);
  }

  /** OUTSIDE_ROOT unless the root really lies inside its boundary; a job checks its target so before reading any of it. */
  async checkRoot(root: WriteRoot): Promise<void> {
    if (!(await isReallyWithin(root.boundary, root.dir)))
      throw new CodedError(
        'OUTSIDE_ROOT',
        `${root.dir} leads outside ${root.boundary} through a symlink; nothing there is read, written or sent to a model`,
      );
  }

  /**
   * A file as a change to it would find it, with the same refusals: a name the root does not take, a root outside
   * its boundary, a symlink (never read through). A file or folder that does not exist yet is absent.
   */
  async readCurrent(root: WriteRoot, path: string): Promise<CurrentVersion> {
    const refusal = nameRefusal(root, path);
    if (refusal) throw refusal;
    await this.checkRoot(root);
    try {
      return await this.files.readCurrent(root.dir, path, { boundary: root.boundary });
    } catch (error) {
      if (error instanceof CodedError && error.code === 'NOT_FOUND') return ABSENT_VERSION;
      throw error;
    }
  }

  async apply(request: ChangeSetRequest): Promise<ChangeSetOutcome> {
    const { root } = request;
    const skip = request.failures === 'skip';
    const failed: FailedFile[] = [];
    const prepared: PreparedChange[] = [];
    for (const change of request.changes) {
      try {
        prepared.push(await this.prepare(root, change));
      } catch (error) {
        if (!skip) throw error;
        failed.push({ path: change.path, error: asCoded(error) });
      }
    }
    // History first: both versions of every file are stored before any file changes, so nothing can be lost.
    for (const change of prepared) {
      if (change.current.bytes) await this.history.putBlob(change.current.bytes);
      if (change.after) await this.history.putBlob(change.after);
    }
    const changeSetId = this.history.newChangeSetId();
    const written: WrittenFile[] = [];
    const entries: NewHistoryEntry[] = [];
    let stoppedBy: unknown = null;
    for (const change of prepared) {
      try {
        await this.land(root, change);
      } catch (error) {
        if (!skip) {
          stoppedBy = error;
          break;
        }
        failed.push({ path: change.path, error: asCoded(error) });
        continue;
      }
      const hash = change.after ? contentHash(change.after) : null;
      written.push({ path: change.path, event: change.after === null ? 'unlink' : change.current.bytes ? 'change' : 'add', hash });
      if (!change.journaled) continue;
      entries.push({
        folder: root.dir,
        path: change.path,
        before: change.current.hash,
        after: hash,
        size: change.after ? change.after.length : null,
        cause: request.cause,
        changeSetId,
        summary: request.summary,
      });
    }
    // What landed is journaled even when a later file failed, so history always matches the disk.
    const journaledId = entries.length > 0 ? changeSetId : null;
    if (journaledId) {
      await this.history.append(entries);
      await this.notes.append([this.noteOf(request, changeSetId)]);
    }
    const outcome: ChangeSetOutcome = { changeSetId: journaledId, written, failed };
    if (written.length > 0) await this.publish({ ...outcome, root, cause: request.cause });
    if (stoppedBy !== null) throw stoppedBy;
    return outcome;
  }

  /**
   * Why a change to `path` would be refused whatever is on disk — its name, or shared content (a secret, an oversized
   * team file) — or null: what a preview shows before anything is applied.
   */
  async contentRefusal(root: WriteRoot, path: string, after: Buffer | null): Promise<CodedError | null> {
    const refusal = nameRefusal(root, path);
    if (refusal || !after || !root.shared || !isShared(root.shared, path)) return refusal;
    return this.guard.refusal(path, after, root.shared);
  }

  /** Every check that needs no write: the name, the shared-file guard, the root's place and the base version. */
  private async prepare(root: WriteRoot, change: FileChange): Promise<PreparedChange> {
    const after =
      change.after === null ? null : typeof change.after === 'string' ? Buffer.from(change.after, 'utf8') : Buffer.from(change.after);
    const refusal = await this.contentRefusal(root, change.path, after);
    if (refusal) throw refusal;
    const current = await this.readCurrent(root, change.path);
    if (current.hash !== change.base) throw conflictError(change.path, change.base ?? ABSENT, current.bytes);
    return { path: change.path, base: change.base, after, mode: change.mode, journaled: change.journaled ?? true, current };
  }

  private async land(root: WriteRoot, change: PreparedChange): Promise<void> {
    const base = change.base ?? ABSENT;
    if (change.after === null) await this.files.remove(root.dir, change.path, base, { boundary: root.boundary });
    else await this.files.write(root.dir, change.path, change.after, base, { boundary: root.boundary, mode: change.mode });
  }

  private noteOf(request: ChangeSetRequest, changeSetId: string): ChangeSetNote {
    return {
      v: 1,
      changeSetId,
      time: new Date(this.now()).toISOString(),
      cause: request.cause,
      sessionId: request.sessionId ?? null,
      firstSight: false,
      foundAtStartup: false,
      evidence: { kind: 'app-edit', summary: request.summary },
    };
  }

  /** A listener that fails must not turn a change that landed into an error. */
  private async publish(written: WrittenChangeSet): Promise<void> {
    await this.writeEmitter.fireAndSettle(written);
  }
}
