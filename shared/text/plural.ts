/** The noun for a count: "1 topic file", "3 topic files"; give the plural when adding an s is wrong ("memories"). */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return count === 1 ? singular : pluralForm;
}

/**
 * One formatter for every count: `toLocaleString` builds a new one at each call, which made this the busiest function
 * of the timeline's first page on a home of 20,000 sessions (150 ms of a profile).
 */
const countFormat = new Intl.NumberFormat('en-US');

/** The count with its noun: `countOf(1, 'topic file')` is "1 topic file", `countOf(0, 'memory', 'memories')` "0 memories". */
export function countOf(count: number, singular: string, pluralForm?: string): string {
  return `${countFormat.format(count)} ${plural(count, singular, pluralForm)}`;
}
