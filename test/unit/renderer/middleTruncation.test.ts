import { describe, expect, it } from 'vitest';
import { middleTruncate, splitForMiddleTruncation } from '../../../renderer/src/components/middleTruncation';

describe('middle truncation of paths', () => {
  it('keeps the last segment whole and lets the rest shrink', () => {
    expect(splitForMiddleTruncation('/home/me/code/webshop/memory/MEMORY.md')).toEqual({
      head: '/home/me/code/webshop/memory',
      tail: '/MEMORY.md',
    });
    expect(splitForMiddleTruncation('C:\\Users\\dev\\tool')).toEqual({ head: 'C:\\Users\\dev', tail: '\\tool' });
  });

  it('keeps the end of a long last segment, and a short text whole', () => {
    const long = `/tmp/${'x'.repeat(60)}`;
    const { head, tail } = splitForMiddleTruncation(long);
    expect(head + tail).toBe(long);
    expect(tail).toBe('x'.repeat(16));
    expect(splitForMiddleTruncation('MEMORY.md')).toEqual({ head: '', tail: 'MEMORY.md' });
  });

  it('cuts a text to a length by its middle', () => {
    expect(middleTruncate('short', 10)).toBe('short');
    const cut = middleTruncate('/home/someone/a/very/long/project/path', 15);
    expect(cut).toHaveLength(15);
    expect(cut).toBe('/home/s…ct/path');
    expect(middleTruncate('abc', 1)).toBe('…');
  });
});
