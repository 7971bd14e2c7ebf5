import type { SnapshotAction } from '../../../../shared/agents/snapshotStatus';
import type { SnapshotCommand, SnapshotFileState, SnapshotOperation, SnapshotPlan } from '../../../../shared/model/agents';

/** What Claude Code itself does with the snapshot when it next loads the agent. */
export const ACTION_TEXT: Readonly<Record<SnapshotAction, string>> = {
  none: 'nothing to do',
  initialize: 'will initialise local memory from it',
  'prompt-update': 'will offer to update from it',
};

export const ACTION_BADGE: Readonly<Record<SnapshotAction, string>> = {
  none: 'in sync',
  initialize: 'initialize',
  'prompt-update': 'update available',
};

export const STATE_TEXT: Readonly<Record<SnapshotFileState, string>> = {
  same: 'same',
  changed: 'differs',
  'snapshot-only': 'only in snapshot',
  'local-only': 'only in local memory',
};

export const COMMAND_TITLES: Readonly<Record<SnapshotCommand, string>> = {
  create: 'Create or update the snapshot',
  initialize: 'Initialise local memory from the snapshot',
  replace: 'Replace local memory from the snapshot',
  'mark-synced': 'Mark as synced',
  merge: 'Merge chosen files from the snapshot',
};

export function operationText(operation: SnapshotOperation, plan: SnapshotPlan): string {
  const where = (side: 'local' | 'snapshot') => (side === 'local' ? 'local memory' : 'the snapshot');
  switch (operation.kind) {
    case 'copy':
      return `${operation.replaces ? 'Overwrite' : 'Add'} ${operation.name} in ${where(operation.to)}${operation.replaces ? ' (the old version goes to history)' : ''}`;
    case 'delete':
      return `Remove ${operation.name} from ${where(operation.from)} (a copy goes to history)`;
    case 'write-meta':
      return operation.to === 'snapshot'
        ? `Write ${operation.name} with updatedAt ${plan.updatedAt ?? ''}`
        : `Write ${operation.name}: synced from ${plan.updatedAt ?? ''}`;
  }
}
