import { describe, expect, it } from 'vitest';
import { containsText, textMatches } from '../../../renderer/src/components/textMatches';

describe('matches of the find query in a text', () => {
  it('finds every occurrence, ignoring case, without overlaps', () => {
    expect(textMatches('Cart total and cart TOTAL', 'cart total')).toEqual([
      [0, 10],
      [15, 25],
    ]);
    expect(textMatches('aaaa', 'aa')).toEqual([
      [0, 2],
      [2, 4],
    ]);
    expect(textMatches('anything', '')).toEqual([]);
    expect(textMatches('nothing here', 'cart')).toEqual([]);
  });

  it('matches nothing where lower-casing would shift the offsets', () => {
    expect(textMatches('İstanbul', 'stan')).toEqual([]);
  });

  it('tells whether a text contains the query', () => {
    expect(containsText('The Cart Total', 'cart')).toBe(true);
    expect(containsText('The Cart Total', null)).toBe(false);
    expect(containsText('The Cart Total', '')).toBe(false);
  });
});
