import type { KeyboardEvent } from 'react';
import type { DayActivity } from './timelineFilter';
import { compactNumber } from './formatNumbers';

export interface ActivityChartProps {
  readonly days: readonly DayActivity[];
  /** The selected range (inclusive), highlighted. */
  readonly from: string | null;
  readonly to: string | null;
  readonly onSelectDay: (day: string) => void;
}

const BAR_WIDTH = 10;
const HEIGHT = 100;

/**
 * Sessions (bars) and tokens (line) per day, drawn as plain SVG. Every day is a button: choosing it
 * filters the timeline to that day.
 */
export function ActivityChart({ days, from, to, onSelectDay }: ActivityChartProps) {
  if (days.length === 0) return null;
  const maxSessions = Math.max(1, ...days.map((d) => d.sessions));
  const maxTokens = Math.max(1, ...days.map((d) => d.tokens));
  const width = days.length * BAR_WIDTH;
  const tokenPoints = days
    .map((d, i) => `${i * BAR_WIDTH + BAR_WIDTH / 2},${HEIGHT - (d.tokens / maxTokens) * (HEIGHT - 4) - 2}`)
    .join(' ');
  const inRange = (day: string): boolean => (from !== null || to !== null) && (from === null || day >= from) && (to === null || day <= to);
  const onKey = (event: KeyboardEvent, day: string): void => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelectDay(day);
    }
  };
  return (
    <figure className="activity-chart">
      <svg
        role="group"
        aria-label="Activity per day"
        viewBox={`0 0 ${width} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="activity-svg"
      >
        {days.map((d, i) => {
          const barHeight = (d.sessions / maxSessions) * (HEIGHT - 4);
          const label = `${d.day}: ${d.sessions} ${d.sessions === 1 ? 'session' : 'sessions'}, ${compactNumber(d.tokens)} tokens`;
          return (
            <g
              key={d.day}
              role="button"
              tabIndex={d.sessions > 0 ? 0 : -1}
              aria-label={label}
              data-day={d.day}
              className={`activity-day${inRange(d.day) ? ' selected' : ''}`}
              onClick={() => onSelectDay(d.day)}
              onKeyDown={(event) => onKey(event, d.day)}
            >
              <title>{label}</title>
              <rect className="activity-hit" x={i * BAR_WIDTH} y={0} width={BAR_WIDTH} height={HEIGHT} />
              <rect className="activity-bar" x={i * BAR_WIDTH + 1} y={HEIGHT - barHeight} width={BAR_WIDTH - 2} height={barHeight} />
            </g>
          );
        })}
        <polyline className="activity-tokens" points={tokenPoints} vectorEffect="non-scaling-stroke" />
      </svg>
      <figcaption className="activity-caption muted small">
        <span>{days[0].day}</span>
        <span>
          <span className="legend-bar" /> sessions (max {maxSessions}/day) <span className="legend-line" /> tokens incl. cache (max{' '}
          {compactNumber(maxTokens)}/day)
        </span>
        <span>{days[days.length - 1].day}</span>
      </figcaption>
    </figure>
  );
}
