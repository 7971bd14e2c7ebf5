import type { MouseEvent } from 'react';
import { PRICES_AS_OF } from '../../../../shared/model/modelPricing';
import type { TranscriptOutline } from '../../../../shared/transcript/transcriptOutline';
import { api } from '../../api/connectApi';
import { formatUsd } from '../../components/formatUsd';
import { countOf } from '../../../../shared/text/plural';
import { useRequest } from '../../components/useRequest';
import { useUiPreferences } from '../../stores/uiPreferencesStore';
import { compactNumber } from '../sessions/formatNumbers';
import { scrollToRow, useTranscriptStore } from './transcriptStore';
import { usageTotals } from '../../../../shared/transcript/turnUsage';
import { usageBars } from './usageSeries';
import './usageChart.css';
import { PendingState } from '../../components/PendingState';

const MAX_BARS = 120;
const WIDTH = 240;
const HEIGHT = 80;
const MIN_SLOTS = 40;

/**
 * Token use per turn (bars: output tokens) and the context the model read on each (line), drawn as SVG, with the
 * totals and, for API-priced models, the cost at list prices. Clicking the chart jumps to that turn.
 */
export function UsageChart({ outline }: { readonly outline: TranscriptOutline }) {
  const view = useTranscriptStore((s) => s.view);
  const costDisplay = useUiPreferences((s) => s.costDisplay);
  const session = { configRoot: outline.configRoot, slug: outline.slug, sessionId: outline.sessionId };
  const key = [outline.configRoot, outline.slug, outline.sessionId, outline.generation, outline.rowCount, JSON.stringify(view)].join('\0');
  const state = useRequest(key, () => api.readTranscriptUsage({ ...session, view }));
  if (state.status === 'loading') return <PendingState label="Adding up token use" />;
  if (state.status === 'error') return <p className="error small">{state.message}</p>;
  const turns = state.value.turns;
  if (turns.length === 0) return <p className="muted small">No model responses with token counts here.</p>;
  const bars = usageBars(turns, MAX_BARS);
  const totals = usageTotals(turns);
  const maxOutput = Math.max(1, ...bars.map((bar) => bar.output));
  const maxContext = Math.max(1, totals.peakContext);
  // A short session keeps narrow bars instead of a few that fill the chart.
  const barWidth = WIDTH / Math.max(bars.length, MIN_SLOTS);
  const line = bars.map((bar, i) => `${(i + 0.5) * barWidth},${HEIGHT - (bar.context / maxContext) * (HEIGHT - 2) - 1}`).join(' ');
  const jump = (event: MouseEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const index = Math.max(0, Math.floor((((event.clientX - box.left) / box.width) * WIDTH) / barWidth));
    if (index < bars.length) scrollToRow(bars[index].row);
  };
  const models = [...new Set(turns.map((turn) => turn.model).filter((model): model is string => model !== null))];
  return (
    <div className="usage-chart">
      <svg
        className="usage-svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Output tokens of each of ${countOf(turns.length, 'turn')} and the context read on each`}
        onClick={jump}
      >
        {bars.map((bar, i) => {
          const height = (bar.output / maxOutput) * (HEIGHT - 2);
          const turnsText =
            bar.turnCount === 1 ? `Turn ${bar.firstTurn + 1}` : `Turns ${bar.firstTurn + 1}–${bar.firstTurn + bar.turnCount}`;
          return (
            <rect
              key={bar.firstTurn}
              className="usage-bar"
              x={i * barWidth + barWidth * 0.1}
              y={HEIGHT - height}
              width={barWidth * 0.8}
              height={height}
            >
              <title>{`${turnsText}: ${compactNumber(bar.output)} output tokens, context ${compactNumber(bar.context)}`}</title>
            </rect>
          );
        })}
        <polyline className="usage-context" points={line} vectorEffect="non-scaling-stroke" />
      </svg>
      <p className="muted small usage-legend">
        <span className="usage-legend-bar" /> output per turn (max {compactNumber(maxOutput)}) <span className="usage-legend-line" />{' '}
        context (peak {compactNumber(maxContext)})
      </p>
      <dl className="facts small usage-facts" aria-label="Token totals">
        <dt>Turns</dt>
        <dd>{turns.length.toLocaleString('en-US')}</dd>
        <dt>Input</dt>
        <dd>{compactNumber(totals.tokens.input)}</dd>
        <dt>Output</dt>
        <dd>{compactNumber(totals.tokens.output)}</dd>
        <dt>Cache</dt>
        <dd>
          {compactNumber(totals.tokens.cacheCreation)} written, {compactNumber(totals.tokens.cacheRead)} read
        </dd>
        {costDisplay === 'api-prices' ? (
          <>
            <dt>Cost</dt>
            <dd title={`List prices as of ${PRICES_AS_OF}; ${models.join(', ')}`}>
              {totals.costUsd === null ? (
                <span className="muted">unknown: no list price for {models.join(', ') || 'an unnamed model'}</span>
              ) : (
                <>
                  {formatUsd(totals.costUsd)} <span className="muted">at API prices</span>
                </>
              )}
            </dd>
          </>
        ) : null}
      </dl>
    </div>
  );
}
