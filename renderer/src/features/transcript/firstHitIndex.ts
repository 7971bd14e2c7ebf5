import type { TranscriptFindHit } from '../../../../shared/transcript/transcriptOutline';

/**
 * The find hit to show first: with `nearLine` (a search hit's line), the hit on that line or the first after it, so
 * the transcript opens where search found the words; else, or when no hit is that far, the first.
 */
export function firstHitIndex(hits: readonly Pick<TranscriptFindHit, 'line'>[], nearLine: number | null): number {
  if (nearLine === null) return 0;
  const index = hits.findIndex((hit) => hit.line >= nearLine);
  return index < 0 ? 0 : index;
}
