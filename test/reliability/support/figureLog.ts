import { appendFileSync } from 'node:fs';
import type { figureCatalog, FigureId } from './figureCatalog';

/** The counts one record of a figure carries, named as in the catalog. */
export type FigureCounts<F extends FigureId> = Readonly<Record<(typeof figureCatalog)[F]['counts'][number], number>>;

/** One line of the figure log; the report sums the counts of every record with the same figure and part. */
export interface FigureRecord {
  readonly figure: FigureId;
  readonly part: string | null;
  readonly counts: Readonly<Record<string, number>>;
}

/** Set by `npm run reliability`: the file every test process appends its figures to. */
export const FIGURE_LOG_ENV = 'CCMEM_RELIABILITY_FIGURES';

/**
 * Adds one measurement to the run's figures. Record before asserting, so a failing run still reports what
 * it measured. Outside `npm run reliability` there is no log and this does nothing.
 */
export function recordFigure<F extends FigureId>(figure: F, counts: FigureCounts<F>, part: string | null = null): void {
  const file = process.env[FIGURE_LOG_ENV];
  if (!file) return;
  const record: FigureRecord = { figure, part, counts };
  // One short line per append: concurrent test processes never interleave inside a line.
  appendFileSync(file, `${JSON.stringify(record)}\n`);
}
