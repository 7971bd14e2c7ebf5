import { join } from 'node:path';
import { lineStats, type LineStats } from '../../../shared/history/textDiff';
import type { HistoryStore } from '../changes/HistoryStore';
import { JsonlLog } from '../changes/jsonlLog';
import { decodeText } from './versionText';

interface LineStatsRecord {
  readonly k: string;
  readonly a: number;
  readonly r: number;
}

function isRecord(value: unknown): value is LineStatsRecord {
  const r = value as Partial<LineStatsRecord> | null;
  return typeof r === 'object' && r !== null && typeof r.k === 'string' && Number.isInteger(r.a) && Number.isInteger(r.r);
}

/**
 * Lines added and removed between two stored versions. Diffing needs both blobs, so results are kept in a
 * small cache file beside the journal: a history listing diffs each pair of versions once, ever.
 */
export class LineStatsCache {
  private readonly log: JsonlLog<LineStatsRecord>;
  private readonly known = new Map<string, LineStats>();
  private loaded = 0;

  constructor(
    historyDir: string,
    private readonly store: HistoryStore,
  ) {
    this.log = new JsonlLog(join(historyDir, 'line-stats.jsonl'), isRecord);
  }

  /** Stats for many pairs at once; new results are written to the cache in one append. */
  async statsFor(pairs: readonly { before: string | null; after: string | null }[]): Promise<LineStats[]> {
    const records = await this.log.load();
    for (let i = this.loaded; i < records.length; i++)
      this.known.set(records[i].k, { linesAdded: records[i].a, linesRemoved: records[i].r });
    this.loaded = records.length;
    const fresh: LineStatsRecord[] = [];
    const out: LineStats[] = [];
    for (const { before, after } of pairs) {
      const key = `${before ?? '-'}:${after ?? '-'}`;
      let stats = this.known.get(key);
      if (!stats) {
        stats = lineStats(await this.text(before), await this.text(after));
        this.known.set(key, stats);
        fresh.push({ k: key, a: stats.linesAdded, r: stats.linesRemoved });
      }
      out.push(stats);
    }
    // A cache: losing it costs a recomputation, so a failed write is not an error.
    await this.log.append(fresh).catch(() => undefined);
    return out;
  }

  private async text(hash: string | null): Promise<string | null> {
    if (hash === null) return null;
    try {
      return decodeText(await this.store.readBlob(hash)) ?? '';
    } catch {
      return '';
    }
  }
}
