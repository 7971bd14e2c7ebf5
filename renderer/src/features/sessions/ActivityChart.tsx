import { useMemo, useState, type KeyboardEvent } from 'react';
import type { SessionCatalogEntry } from '../../../../shared/model/catalog';
import { countOf } from '../../../../shared/text/plural';
import { dayHeatmap, HEATMAP_RANGES, hourHeatmap, localDay, type HeatCell, type HeatmapRange } from './activityHeatmap';
import { compactNumber } from './formatNumbers';
import { activityByDay, sessionTokens } from './timelineFilter';
import './activityChart.css';

export interface ActivityChartProps {
  /** The sessions the chart counts (every filter applied but the dates). */
  readonly sessions: readonly SessionCatalogEntry[];
  /** The selected range (inclusive), outlined. */
  readonly from: string | null;
  readonly to: string | null;
  readonly onSelectDay: (day: string) => void;
}

const CELL = 11;
const GAP = 2;
const LEFT = 44;
const TOP = 14;
const RANGE_NAMES: Readonly<Record<HeatmapRange, string>> = { week: 'Week', month: 'Month', year: 'Year' };
const RANGE_SPANS: Readonly<Record<HeatmapRange, string>> = { week: 'the last 7 days', month: 'the last 6 weeks', year: 'the last year' };
const RANGE_ENDING: Readonly<Record<HeatmapRange, string>> = { week: 'the 7 days to', month: 'the 6 weeks to', year: 'the year to' };

function cellLabel(cell: HeatCell): string {
  const when =
    cell.hour === null ? cell.day : `${cell.day} ${String(cell.hour).padStart(2, '0')}:00–${String(cell.hour + 1).padStart(2, '0')}:00`;
  return `${when}: ${countOf(cell.sessions, 'session')}${cell.sessions > 0 ? `, ${compactNumber(cell.tokens)} tokens` : ''}`;
}

/**
 * When sessions happened, as a heatmap of a week (hours of each day), a month or a year (days). Every square is a
 * button (one tab stop; the arrow keys move between squares): choosing one filters the timeline to that day.
 */
export function ActivityChart({ sessions, from, to, onSelectDay }: ActivityChartProps) {
  const [range, setRange] = useState<HeatmapRange>('year');
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const today = localDay(new Date());
  const { map, end } = useMemo(() => {
    const days = activityByDay(sessions, 400);
    const draw = (last: string) => {
      if (range !== 'week') return dayHeatmap(days, range, last);
      const starts = sessions.map((s) => ({ start: new Date(s.firstTimestamp ?? s.lastTimestamp ?? s.mtime), tokens: sessionTokens(s) }));
      return hourHeatmap(starts, last);
    };
    // Ending today shows nothing when every session is older than the range: then it ends at the last session's day.
    const recent = draw(today);
    const lastDay = days.at(-1)?.day;
    if (recent.sessions > 0 || lastDay === undefined || lastDay >= today) return { map: recent, end: today };
    return { map: draw(lastDay), end: lastDay };
  }, [sessions, range, today]);
  const span = end === today ? RANGE_SPANS[range] : `${RANGE_ENDING[range]} ${end}`;
  if (sessions.length === 0) return null;

  const inRange = (day: string): boolean => (from !== null || to !== null) && (from === null || day >= from) && (to === null || day <= to);
  const byPosition = new Map(map.cells.map((cell) => [`${cell.column}:${cell.row}`, cell]));
  const focused = map.cells.find((cell) => cell.key === focusKey) ?? map.cells[map.cells.length - 1];
  const onKey = (event: KeyboardEvent, cell: HeatCell): void => {
    const moves: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelectDay(cell.day);
    } else if (moves[event.key]) {
      event.preventDefault();
      const [dx, dy] = moves[event.key];
      const next = byPosition.get(`${cell.column + dx}:${cell.row + dy}`);
      if (next) {
        setFocusKey(next.key);
        document.getElementById(`heat-${next.key}`)?.focus();
      }
    }
  };
  const width = LEFT + map.columns * (CELL + GAP);
  const height = TOP + map.rows * (CELL + GAP);
  return (
    <figure className="activity-chart">
      <div className="activity-head">
        <span className="small muted">
          {countOf(map.sessions, 'session')} started in {span}
        </span>
        <div className="segmented" role="group" aria-label="Activity range">
          {HEATMAP_RANGES.map((choice) => (
            <button key={choice} type="button" aria-pressed={choice === range} onClick={() => setRange(choice)}>
              {RANGE_NAMES[choice]}
            </button>
          ))}
        </div>
      </div>
      <div className="activity-scroll">
        <svg
          role="group"
          aria-label={`Sessions per ${range === 'week' ? 'hour' : 'day'}, ${span}`}
          width={width}
          height={height}
          className="activity-svg"
        >
          {map.columnLabels.map((label) => (
            <text key={`c${label.column}`} className="activity-label" x={LEFT + label.column * (CELL + GAP)} y={TOP - 4}>
              {label.text}
            </text>
          ))}
          {map.rowLabels.map((text, row) =>
            text ? (
              <text key={`r${row}`} className="activity-label" x={0} y={TOP + row * (CELL + GAP) + CELL - 2}>
                {text}
              </text>
            ) : null,
          )}
          {map.cells.map((cell) => (
            <rect
              key={cell.key}
              id={`heat-${cell.key}`}
              role="button"
              tabIndex={cell === focused ? 0 : -1}
              aria-label={cellLabel(cell)}
              data-day={cell.day}
              className={`activity-cell heat-${cell.level}${inRange(cell.day) ? ' selected' : ''}`}
              x={LEFT + cell.column * (CELL + GAP)}
              y={TOP + cell.row * (CELL + GAP)}
              width={CELL}
              height={CELL}
              rx={2}
              onClick={() => onSelectDay(cell.day)}
              onFocus={() => setFocusKey(cell.key)}
              onKeyDown={(event) => onKey(event, cell)}
            >
              <title>{cellLabel(cell)}</title>
            </rect>
          ))}
        </svg>
      </div>
      <figcaption className="activity-caption muted small">
        <span>Click a square to show that day&apos;s sessions.</span>
        <span className="activity-legend" aria-hidden="true">
          Fewer{' '}
          {[0, 1, 2, 3, 4].map((level) => (
            <span key={level} className={`activity-swatch heat-${level}`} />
          ))}{' '}
          more
        </span>
      </figcaption>
    </figure>
  );
}
