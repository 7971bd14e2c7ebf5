import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { describeTotals } from '../../../../shared/history/changeSetFiles';
import type { ChangeSetSummary } from '../../../../shared/history/historyModel';
import { RelativeTime } from '../../components/RelativeTime';
import { CauseBadge } from './EvidenceView';
import { moveFocusByArrows } from '../../components/listKeyboard';

export interface ChangeSetListProps {
  readonly changeSets: readonly ChangeSetSummary[];
  readonly selectedId: string | null;
  readonly showFolder: boolean;
  readonly onSelect: (id: string) => void;
}

const ROW_HEIGHT = 58;

/** The timeline of change sets, newest first, virtualised: only the rows in view are in the page. */
export function ChangeSetList({ changeSets, selectedId, showFolder, onSelect }: ChangeSetListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: changeSets.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  return (
    <div
      ref={scrollRef}
      className="change-set-list"
      role="listbox"
      aria-label="Change sets"
      onKeyDown={(event) => moveFocusByArrows(event, '.change-set-row')}
      style={{ height: `min(65vh, ${changeSets.length * ROW_HEIGHT + 2}px)` }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const changeSet = changeSets[item.index];
          const selected = changeSet.id === selectedId;
          return (
            <div
              key={changeSet.id}
              role="option"
              aria-selected={selected}
              tabIndex={0}
              className={`change-set-row${selected ? ' selected' : ''}`}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
              onClick={() => onSelect(changeSet.id)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') onSelect(changeSet.id);
              }}
            >
              <div className="change-set-row-top">
                <CauseBadge cause={changeSet.cause} />
                <span className="change-set-summary">{changeSet.firstSight ? 'History starts here' : changeSet.summary}</span>
                {changeSet.timeKnown ? null : <span className="muted small">after</span>}
                <RelativeTime iso={changeSet.time} />
              </div>
              <div className="muted small change-set-row-sub">
                {changeSet.reconstructed ? (
                  <span className="badge muted-badge" title="Rebuilt from what Claude Code left behind, before history started">
                    reconstructed
                  </span>
                ) : null}
                {showFolder ? `${changeSet.folderLabel} · ` : ''}
                {describeTotals(changeSet.totals)}
                {changeSet.files.length === 1 ? ` · ${changeSet.files[0].path}` : ''}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
