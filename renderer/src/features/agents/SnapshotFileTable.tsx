import { Fragment } from 'react';
import type { AgentSnapshotDiff } from '../../../../shared/model/agents';
import { SnapshotFileDiff } from './SnapshotFileDiff';
import { STATE_TEXT } from './snapshotTexts';

export interface SnapshotFileTableProps {
  readonly entries: AgentSnapshotDiff['entries'];
  readonly readOnly: boolean;
  /** The files chosen to take from the snapshot in a merge. */
  readonly chosen: ReadonlySet<string>;
  readonly onToggle: (name: string) => void;
  /** The file whose diff is open. */
  readonly open: string | null;
  readonly onOpen: (name: string | null) => void;
}

/** Snapshot and local memory file by file: the state of each, its diff on a click, and the choice to merge it. */
export function SnapshotFileTable({ entries, readOnly, chosen, onToggle, open, onOpen }: SnapshotFileTableProps) {
  if (entries.length === 0) return <p className="muted">Neither side holds any file yet.</p>;
  return (
    <div className="table-scroll">
      <table className="data-table" aria-label="Snapshot files">
        <thead>
          <tr>
            <th>Merge</th>
            <th>File</th>
            <th>State</th>
            <th>Local</th>
            <th>Snapshot</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <Fragment key={entry.name}>
              <tr>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Take ${entry.name} from the snapshot`}
                    disabled={entry.state === 'same' || readOnly}
                    checked={chosen.has(entry.name)}
                    onChange={() => onToggle(entry.name)}
                  />
                </td>
                <td>
                  <button
                    type="button"
                    className="link"
                    aria-expanded={open === entry.name}
                    onClick={() => onOpen(open === entry.name ? null : entry.name)}
                  >
                    {entry.name}
                  </button>
                </td>
                <td>
                  <span className={`badge file-${entry.state}`}>{STATE_TEXT[entry.state]}</span>
                </td>
                <td>{entry.local ? `${entry.local.size} B` : '—'}</td>
                <td>{entry.snapshot ? `${entry.snapshot.size} B` : '—'}</td>
              </tr>
              {open === entry.name ? (
                <tr>
                  <td colSpan={5}>
                    <SnapshotFileDiff entry={entry} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
