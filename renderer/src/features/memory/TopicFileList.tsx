import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type KeyboardEvent } from 'react';
import type { FindingCode, FindingSeverity } from '../../../../shared/memory/findingCodes';
import type { ReviewedMemoryFile } from '../../../../shared/memory/memoryReview';
import { FindingBadge, TypeBadge } from './MemoryBadges';
import { moveFocusByArrows } from '../../components/listKeyboard';

export interface TopicFileListProps {
  readonly files: readonly ReviewedMemoryFile[];
  readonly selected: string | null;
  readonly changed: ReadonlySet<string>;
  readonly onSelect: (relativePath: string) => void;
  readonly onOpenSession: ((sessionId: string) => void) | null;
  /** The most serious severity of each code on each file (a secret in team memory is an error). */
  readonly severityOf: (relativePath: string, code: FindingCode) => FindingSeverity;
}

const ROW_HEIGHT = 72;

/** The topic files as a table; only the rows in view are in the page, so thousands of files stay smooth. */
export function TopicFileList({ files, selected, changed, onSelect, onOpenSession, severityOf }: TopicFileListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: files.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // Render the first rows before the scroll container has been measured (first paint, tests).
    initialRect: { width: 800, height: 480 },
  });
  const onKey = (event: KeyboardEvent<HTMLDivElement>, path: string) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelect(path);
    }
  };
  return (
    <div
      className="topic-table"
      role="table"
      aria-label="Topic files"
      aria-rowcount={files.length + 1}
      onKeyDown={(event) => moveFocusByArrows(event, '.topic-item')}
    >
      <div role="rowgroup" className="topic-head">
        <div role="row" className="topic-row">
          <div role="columnheader">Memory</div>
          <div role="columnheader">Type</div>
          <div role="columnheader">Scope</div>
          <div role="columnheader">Age</div>
          <div role="columnheader">Findings</div>
        </div>
      </div>
      <div role="rowgroup" className="topic-scroll" ref={scroller}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const file = files[item.index];
            const isChanged = changed.has(file.relativePath);
            return (
              <div
                key={file.relativePath}
                ref={virtualizer.measureElement}
                data-index={item.index}
                role="row"
                aria-rowindex={item.index + 2}
                aria-selected={selected === file.relativePath}
                data-changed={isChanged ? 'true' : undefined}
                tabIndex={0}
                className={`topic-row topic-item${selected === file.relativePath ? ' selected' : ''}${isChanged ? ' changed' : ''}`}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` }}
                onClick={() => onSelect(file.relativePath)}
                onKeyDown={(event) => onKey(event, file.relativePath)}
              >
                <div role="cell" className="topic-main">
                  <div className="topic-name">
                    {file.name ?? file.relativePath}
                    {isChanged ? <span className="badge changed-badge">changed just now</span> : null}
                  </div>
                  <div className="topic-description">{file.description ?? <span className="muted">no description</span>}</div>
                  <div className="topic-path">
                    <code>{file.relativePath}</code>
                    {file.originSessionId ? (
                      onOpenSession ? (
                        <button
                          type="button"
                          className="link small"
                          title={`Written in session ${file.originSessionId}`}
                          onClick={(event) => {
                            event.stopPropagation();
                            onOpenSession(file.originSessionId as string);
                          }}
                        >
                          session {file.originSessionId.slice(0, 8)}
                        </button>
                      ) : (
                        <span className="muted small" title={file.originSessionId}>
                          session {file.originSessionId.slice(0, 8)}
                        </span>
                      )
                    ) : null}
                  </div>
                </div>
                <div role="cell">
                  <TypeBadge file={file} />
                </div>
                <div role="cell">{file.scope}</div>
                <div role="cell" title={file.mtime}>
                  {file.age}
                </div>
                <div role="cell" className="topic-findings">
                  {file.findings.map((code) => (
                    <FindingBadge key={code} code={code} severity={severityOf(file.relativePath, code)} />
                  ))}
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
