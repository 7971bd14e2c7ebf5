import { describe, expect, it } from 'vitest';
import { countOf, plural } from '../../../shared/text/plural';
import { formatUsd } from '../../../renderer/src/components/formatUsd';
import { formatDuration } from '../../../renderer/src/features/sessions/formatNumbers';

describe('plurals', () => {
  it('says "1 topic file" and "2 topic files", and takes an irregular plural', () => {
    expect(countOf(1, 'topic file')).toBe('1 topic file');
    expect(countOf(0, 'topic file')).toBe('0 topic files');
    expect(countOf(2, 'topic file')).toBe('2 topic files');
    expect(countOf(1, 'memory', 'memories')).toBe('1 memory');
    expect(countOf(3, 'memory', 'memories')).toBe('3 memories');
    expect(countOf(1234, 'entry', 'entries')).toBe('1,234 entries');
    expect(plural(1, 'hit')).toBe('hit');
    expect(plural(5, 'hit')).toBe('hits');
  });
});

describe('durations', () => {
  const MIN = 60_000;
  it('reads in minutes, hours, and days for long sessions', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(10_000)).toBe('<1 min');
    expect(formatDuration(42 * MIN)).toBe('42 min');
    expect(formatDuration(60 * MIN)).toBe('1 h');
    expect(formatDuration(185 * MIN)).toBe('3 h 5 min');
    expect(formatDuration(24 * 60 * MIN)).toBe('1 day');
    expect(formatDuration((2 * 24 + 4) * 60 * MIN + 20 * MIN)).toBe('2 days 4 h');
    expect(formatDuration(19 * 24 * 60 * MIN)).toBe('19 days');
  });
});

describe('dollars', () => {
  it('rounds to cents, says when less than one, and groups thousands', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.004)).toBe('<$0.01');
    expect(formatUsd(0.426)).toBe('$0.43');
    expect(formatUsd(12.3)).toBe('$12.30');
    expect(formatUsd(1234.4)).toBe('$1,234');
  });
});
