/** The noun for a count: "1 topic file", "3 topic files"; give the plural when adding an s is wrong ("memories"). */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return count === 1 ? singular : pluralForm;
}

/** The count with its noun: `countOf(1, 'topic file')` is "1 topic file", `countOf(0, 'memory', 'memories')` "0 memories". */
export function countOf(count: number, singular: string, pluralForm?: string): string {
  return `${count.toLocaleString('en-US')} ${plural(count, singular, pluralForm)}`;
}
