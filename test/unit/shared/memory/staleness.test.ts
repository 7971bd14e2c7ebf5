import { describe, expect, it } from 'vitest';
import { findCitedPaths, findRelativeDates } from '../../../../shared/memory/staleness';

describe('relative dates', () => {
  it.each([
    'Deploy froze yesterday',
    'Ship it next Thursday',
    'We agreed last week',
    'Due in 3 days',
    'Two weeks ago the API broke',
    'Revisit this month',
  ])('flags "%s"', (line) => {
    expect(findRelativeDates(`${line}\n`, 5)).toEqual([{ line: 5, text: line }]);
  });

  it.each([
    'Freeze started yesterday (2026-05-03)',
    'Shipped on May 4, 2026, not last week',
    'A date-free rule',
    'Weekday builds run nightly; todays is a typo',
  ])('does not flag "%s"', (line) => {
    expect(findRelativeDates(line, 1)).toEqual([]);
  });

  it('ignores fenced code', () => {
    expect(findRelativeDates('```\nrun it tomorrow\n```\n', 1)).toEqual([]);
  });
});

describe('cited paths', () => {
  it('finds backticked and bare paths with line references', () => {
    const body = 'See `src/cart/total.ts:42` and lib/util/money.ts, also `package.json`.\nNot https://x.io/a/b.ts nor npm/yarn nor v1.2.3.';
    expect(findCitedPaths(body, 10)).toEqual([
      { line: 10, path: 'src/cart/total.ts', lineRef: 42 },
      { line: 10, path: 'package.json', lineRef: null },
      { line: 10, path: 'lib/util/money.ts', lineRef: null },
    ]);
  });

  it('finds nothing in plain prose', () => {
    expect(findCitedPaths('Prefer early returns; never force-push to main/dev branches.', 1)).toEqual([]);
  });
});
