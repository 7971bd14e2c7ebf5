import { describe, expect, it } from 'vitest';
import { firstHitIndex } from '../../../renderer/src/features/transcript/firstHitIndex';

describe('the find hit a transcript opens on', () => {
  const hits = [{ line: 3 }, { line: 3 }, { line: 9 }, { line: 14 }];

  it('is the hit on the line search found, or the first after it', () => {
    expect(firstHitIndex(hits, 3)).toBe(0);
    expect(firstHitIndex(hits, 9)).toBe(2);
    expect(firstHitIndex(hits, 10)).toBe(3);
  });

  it('is the first hit without a line, or when none is that far', () => {
    expect(firstHitIndex(hits, null)).toBe(0);
    expect(firstHitIndex(hits, 15)).toBe(0);
    expect(firstHitIndex([], 4)).toBe(0);
  });
});
