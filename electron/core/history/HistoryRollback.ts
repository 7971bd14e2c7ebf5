import { createTwoFilesPatch } from 'diff';
import { netFileChanges } from '../../../shared/history/changeSetFiles';
import {
  CAUSE_LABELS,
  type PlannedFileWrite,
  type RollbackConflict,
  type RollbackPlan,
  type RollbackResult,
} from '../../../shared/history/historyModel';
import { lineStats } from '../../../shared/history/textDiff';
import { CodedError } from '../../../shared/result';
import type { ChangeSetWriter, FileChange } from '../changes/changeSetWriter';
import type { HistoryIndex } from './HistoryIndex';
import { decodeText } from './versionText';
import type { WriteRoot } from '../changes/writeRoot';

/** One file to put back: what must be on disk now, and what it becomes. */
export interface RollbackTarget {
  readonly path: string;
  /** The version the person based the decision on; anything else on disk is a newer change. */
  readonly expected: string | null;
  readonly target: string | null;
}

function short(hash: string | null): string {
  return hash === null ? 'absent' : hash.slice(0, 12);
}

/**
 * Restores versions from history through the change-set writer, each as one app-edit change set. A plan compares
 * every file with the version it is expected to be; when a newer change sits on disk the plan says which and
 * the rollback is refused as a whole, so nothing is overwritten that history has not shown the person.
 */
export class HistoryRollback {
  constructor(
    private readonly index: HistoryIndex,
    private readonly writer: ChangeSetWriter,
  ) {}

  /** The files of a change set set back to where they were before it (all, or the named ones). */
  revertTargets(changeSetId: string, paths?: readonly string[]): { memoryDir: string; targets: RollbackTarget[] } {
    const set = this.index.changeSet(changeSetId);
    if (!set) throw new CodedError('NOT_FOUND', `No change set ${changeSetId} in the history`);
    const files = netFileChanges(set.entries);
    const unknown = (paths ?? []).filter((path) => !files.some((file) => file.path === path));
    if (unknown.length > 0) throw new CodedError('INVALID_INPUT', `The change set did not change ${unknown.join(', ')}`);
    const chosen = paths ? files.filter((file) => paths.includes(file.path)) : files;
    if (set.note?.firstSight)
      throw new CodedError('INVALID_INPUT', 'This is where history starts, not a change: there is nothing before it to go back to');
    const unknownBytes = chosen.filter((file) => file.certainty !== 'exact' || !file.beforeKnown).map((file) => file.path);
    if (unknownBytes.length > 0)
      throw new CodedError(
        'INVALID_INPUT',
        `The bytes of ${unknownBytes.join(', ')} before or after this change are not known (reconstructed from a trace of it): it cannot be reverted`,
      );
    return { memoryDir: set.folder, targets: chosen.map((file) => ({ path: file.path, expected: file.after, target: file.before })) };
  }

  /** One file set to a version from its history; `expected` null means "whatever history last recorded". */
  restoreTarget(memoryDir: string, path: string, version: string, expected: string | null | undefined): RollbackTarget {
    const versions = this.index.versions(memoryDir, path);
    // Only versions whose bytes are known are targets (an inferred version has no hash to name).
    if (!versions.some((entry) => entry.after === version || entry.before === version))
      throw new CodedError('NOT_FOUND', `Version ${short(version)} of ${path} is not in the history`);
    const latest = this.index.latest(memoryDir, path)?.after ?? versions[versions.length - 1]?.after ?? null;
    return { path, expected: expected === undefined ? latest : expected, target: version };
  }

  async plan(root: WriteRoot, targets: readonly RollbackTarget[]): Promise<RollbackPlan> {
    const memoryDir = root.dir;
    const writes: PlannedFileWrite[] = [];
    const conflicts: RollbackConflict[] = [];
    const patches: string[] = [];
    for (const target of targets) {
      const current = await this.writer.readCurrent(root, target.path);
      if (current.hash !== target.expected) {
        conflicts.push({
          path: target.path,
          expected: target.expected,
          current: current.hash,
          reason: this.newerChange(memoryDir, target, current.hash),
        });
        continue;
      }
      if (target.target === current.hash) continue;
      const [fromText, toText] = [current.bytes ? decodeText(current.bytes) : '', await this.textOf(target.target)];
      const stats = lineStats(fromText, toText);
      writes.push({ path: target.path, expected: current.hash, target: target.target, ...stats });
      patches.push(
        fromText === null || toText === null
          ? `Binary or very large file ${target.path} differs\n`
          : createTwoFilesPatch(
              current.hash ? `a/${target.path}` : '/dev/null',
              target.target ? `b/${target.path}` : '/dev/null',
              fromText,
              toText ?? '',
              `current ${short(current.hash)}`,
              `restored ${short(target.target)}`,
            ),
      );
    }
    return { memoryDir, writes, conflicts, patch: patches.join('') };
  }

  /**
   * Applies a plan (made for `root`) unless it has conflicts. Every file is written with the version the plan saw
   * as its base, and what landed is one app-edit change set, also when a later write fails.
   */
  async apply(root: WriteRoot, plan: RollbackPlan, summary: string): Promise<RollbackResult> {
    if (plan.memoryDir !== root.dir) throw new CodedError('INVALID_INPUT', 'That plan was made for another folder');
    if (plan.conflicts.length > 0) {
      const first = plan.conflicts[0];
      throw new CodedError(
        'CONFLICT',
        `Refused: ${first.path} ${first.reason}${plan.conflicts.length > 1 ? ` (and ${plan.conflicts.length - 1} more)` : ''}`,
        {
          conflicts: plan.conflicts,
        },
      );
    }
    if (plan.writes.length === 0) return { plan, applied: false, changeSetId: null };
    const changes: FileChange[] = [];
    for (const write of plan.writes)
      changes.push({
        path: write.path,
        base: write.expected,
        after: write.target === null ? null : await this.index.store.readBlob(write.target),
      });
    const { changeSetId } = await this.writer.apply({ root, changes, cause: 'app-edit', summary });
    return { plan, applied: true, changeSetId };
  }

  /** Explains a conflict: the newer change history knows of, or an unrecorded change on disk. */
  private newerChange(memoryDir: string, target: RollbackTarget, current: string | null): string {
    const versions = this.index.versions(memoryDir, target.path);
    const since = versions.findLastIndex((entry) => entry.after === target.expected);
    const later = since >= 0 ? versions.slice(since + 1).find((entry) => entry.after === current) : undefined;
    if (later) {
      const set = this.index.changeSet(later.changeSetId);
      const cause = set?.note?.cause ?? later.cause;
      return `was changed again after that (${CAUSE_LABELS[cause].toLowerCase()}, ${set?.note?.time ?? later.time}); going back would overwrite that newer change`;
    }
    if (current === null) return 'was deleted since; going back would undo that deletion unseen';
    return 'changed on disk since; going back would overwrite that newer change';
  }

  private async textOf(hash: string | null): Promise<string | null> {
    if (hash === null) return '';
    return decodeText(await this.index.store.readBlob(hash));
  }
}
