import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIGURE_IDS } from '../../../bench/runner/figures';

describe('docs/performance.md', () => {
  it('lists exactly the figure ids the runner writes, in table order', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../../docs/performance.md'), 'utf8');
    const paragraph = /Figure ids, in table order:([\s\S]*?)\. A figure/.exec(doc)?.[1] ?? '';
    expect([...paragraph.matchAll(/`(\w+)`/g)].map((match) => match[1])).toEqual(FIGURE_IDS);
  });
});
