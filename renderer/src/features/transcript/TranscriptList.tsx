import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { TranscriptOutline } from '../../../../shared/transcript/transcriptOutline';
import { EntryView } from './EntryView';
import { ForkSwitcher } from './ForkSwitcher';
import { ensureRows, noteTopRow, rowAt, setFollow, useTranscriptStore } from './transcriptStore';
import { useTextHighlights } from '../../components/useTextHighlights';

export interface TranscriptListProps {
  readonly outline: TranscriptOutline;
  readonly onOpenSubagent: (agentId: string) => void;
}

/** The CSS highlight (`::highlight(transcript-find)`) that marks the words find matched. */
const FIND_HIGHLIGHT = 'transcript-find';

/** Pixels from the bottom that still count as "at the end" (so new turns keep scrolling into view). */
const FOLLOW_SLACK_PX = 48;

/**
 * The rows of the shown branch, virtualised: only the rows on screen exist in the DOM, and their pages are fetched
 * (by byte offset, in the engine) as they scroll into view.
 */
export function TranscriptList({ outline, onOpenSubagent }: TranscriptListProps) {
  const { pages, scrollTarget, find } = useTranscriptStore(
    useShallow((s) => ({ pages: s.pages, scrollTarget: s.scrollTarget, find: s.find })),
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  useTextHighlights(scrollRef, FIND_HIGHLIGHT, find && find.hits.length > 0 ? find.query : null);
  const forkAt = useMemo(() => new Map(outline.forks.map((fork) => [fork.row, fork])), [outline.forks]);
  const hitRows = useMemo(() => new Set(find?.hits.map((hit) => hit.row) ?? []), [find]);
  const currentHit = find && find.hits.length > 0 ? find.hits[find.index].row : null;

  const virtualizer = useVirtualizer({
    count: outline.rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 110,
    overscan: 6,
  });
  const items = virtualizer.getVirtualItems();
  const first = items.length > 0 ? items[0].index : 0;
  const last = items.length > 0 ? items[items.length - 1].index : -1;

  useEffect(() => {
    if (last >= 0) ensureRows(first, last);
    noteTopRow(first);
  }, [first, last, outline]);

  useEffect(() => {
    if (!scrollTarget || scrollTarget.row >= outline.rowCount) return;
    // Rows above the target change height as their pages load and get measured, so the jump is repeated each
    // frame until the target row is loaded and stays put (or a second has passed).
    let frame = 0;
    let lastTop = -1;
    let handle = 0;
    const step = () => {
      virtualizer.scrollToIndex(scrollTarget.row, { align: 'start' });
      const top = scrollRef.current?.scrollTop ?? 0;
      const loaded = rowAt(useTranscriptStore.getState().pages, scrollTarget.row) !== undefined;
      if (frame++ < 60 && (!loaded || top !== lastTop)) handle = requestAnimationFrame(step);
      lastTop = top;
    };
    step();
    return () => cancelAnimationFrame(handle);
    // Only a new target moves the view; the virtualizer itself is stable.
  }, [scrollTarget]);

  return (
    <div
      ref={scrollRef}
      className="tx-scroll"
      tabIndex={0}
      aria-label="Transcript"
      data-row-count={outline.rowCount}
      onScroll={(event) => {
        const element = event.currentTarget;
        setFollow(element.scrollHeight - element.scrollTop - element.clientHeight < FOLLOW_SLACK_PX);
      }}
    >
      <div className="tx-rows" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = rowAt(pages, item.index);
          const previous = item.index > 0 ? rowAt(pages, item.index - 1) : undefined;
          const messageId = row?.entry.body.kind === 'assistant' ? row.entry.body.messageId : null;
          const continued = messageId !== null && previous?.entry.body.kind === 'assistant' && previous.entry.body.messageId === messageId;
          const fork = forkAt.get(item.index);
          const hitClass = item.index === currentHit ? ' tx-hit-current' : hitRows.has(item.index) ? ' tx-hit' : '';
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className={`tx-row${hitClass}`}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {row ? (
                <EntryView entry={row.entry} onOpenSubagent={onOpenSubagent} continued={continued} />
              ) : (
                <div className="tx-placeholder">Reading these lines…</div>
              )}
              {fork ? <ForkSwitcher fork={fork} /> : null}
            </div>
          );
        })}
      </div>
      {outline.rowCount === 0 ? (
        <p className="muted tx-empty">
          {!outline.mainTranscript && outline.agent === null
            ? "This session's own transcript is gone, so there is no conversation to show; what its sub-agents did is listed beside it."
            : `Nothing to show in this conversation${outline.view.showMetadata ? '' : ' (bookkeeping lines are hidden)'}.`}
        </p>
      ) : null}
    </div>
  );
}
