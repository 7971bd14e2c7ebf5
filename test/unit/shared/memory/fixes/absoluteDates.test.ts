import { describe, expect, it } from 'vitest';
import { absoluteDateEdits, localDateOf, parseDay } from '../../../../../shared/memory/fixes/absoluteDates';
import { applyEdits } from '../../../../../shared/memory/fixes/textEdits';
import { findRelativeDates } from '../../../../../shared/memory/staleness';

/** 2026-05-10 is a Sunday. */
const SUNDAY = '2026-05-10';
const WEDNESDAY = '2026-05-13';

function rewrite(line: string, date = WEDNESDAY): string {
  return applyEdits(line, absoluteDateEdits(line, date)).text;
}

describe('relative dates made absolute from the file’s date', () => {
  it('names days exactly', () => {
    expect(rewrite('We deployed yesterday.')).toBe('We deployed 2026-05-12.');
    expect(rewrite('Today the API froze; tomorrow it thaws.')).toBe('2026-05-13 the API froze; 2026-05-14 it thaws.');
    expect(rewrite('Fixed the day before yesterday')).toBe('Fixed 2026-05-11');
    expect(rewrite('ships the day after tomorrow')).toBe('ships 2026-05-15');
    expect(rewrite('Noticed this morning and again tonight')).toBe('Noticed the morning of 2026-05-13 and again the night of 2026-05-13');
    expect(rewrite('broke 3 days ago')).toBe('broke 2026-05-10');
    expect(rewrite('release in two days')).toBe('release on 2026-05-15');
    expect(rewrite('due within 10 days')).toBe('due by 2026-05-23');
  });

  it('names weeks by their Monday, weekends by their Saturday, and weekdays with their date', () => {
    expect(rewrite('shipped last week')).toBe('shipped the week of 2026-05-04');
    expect(rewrite('This week is a freeze')).toBe('The week of 2026-05-11 is a freeze');
    expect(rewrite('planned for next week')).toBe('planned for the week of 2026-05-18');
    expect(rewrite('two weeks ago')).toBe('the week of 2026-04-27');
    expect(rewrite('on call this weekend')).toBe('on call the weekend of 2026-05-16');
    expect(rewrite('demo next Thursday')).toBe('demo Thursday 2026-05-14');
    expect(rewrite('met last Wed')).toBe('met Wednesday 2026-05-06');
    expect(rewrite('this Friday')).toBe('Friday 2026-05-15');
    // A Sunday ends its week: "this Monday" is six days before it.
    expect(rewrite('this Monday', SUNDAY)).toBe('Monday 2026-05-04');
    expect(rewrite('next Sunday', SUNDAY)).toBe('Sunday 2026-05-17');
  });

  it('names months, quarters and years', () => {
    expect(rewrite('moved last month')).toBe('moved April 2026');
    expect(rewrite('budget for next quarter')).toBe('budget for Q3 2026');
    expect(rewrite('since last year')).toBe('since 2025');
    expect(rewrite('in 3 months')).toBe('in August 2026');
    expect(rewrite('a year ago', '2026-01-31')).toBe('2025');
    expect(rewrite('next month', '2026-12-31')).toBe('January 2027');
    expect(rewrite('earlier this week')).toBe('earlier in the week of 2026-05-11');
    expect(rewrite('later this month')).toBe('later in May 2026');
  });

  it('keeps what has no exact meaning and adds the date it was written', () => {
    expect(rewrite('after the next release')).toBe('after the next release (as of 2026-05-13)');
    expect(rewrite('a few days ago the cache broke')).toBe('a few days ago (as of 2026-05-13) the cache broke');
    expect(rewrite('ends this sprint')).toBe('ends this sprint (as of 2026-05-13)');
  });

  it('leaves a line without a relative date alone, and the rewritten line is no longer flagged', () => {
    expect(absoluteDateEdits('Nothing relative here', WEDNESDAY)).toEqual([]);
    expect(absoluteDateEdits('yesterday', 'not a date')).toEqual([]);
    const line = 'We moved the cron job yesterday, next week it goes.';
    expect(findRelativeDates(line, 1)).toHaveLength(1);
    expect(findRelativeDates(rewrite(line), 1)).toEqual([]);
  });

  it('reads dates strictly and takes a file’s local day', () => {
    expect(parseDay('2026-02-30')).toBeNull();
    expect(parseDay('2026-5-1')).toBeNull();
    const noon = new Date(2026, 4, 13, 12, 0, 0).getTime();
    expect(localDateOf(noon)).toBe('2026-05-13');
  });
});
