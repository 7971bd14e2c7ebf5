import type { FindingCode } from '../../../../shared/memory/findingCodes';
import type { ReviewedMemoryFile } from '../../../../shared/memory/memoryReview';
import { MEMORY_TYPES, type MemoryType } from '../../../../shared/model/memory';

export type TypeFilter = 'all' | MemoryType | 'unknown';
export type AgeFilter = 'all' | 'week' | 'month' | 'older';
export type FindingFilter = 'all' | 'any' | 'none' | FindingCode;
export type ScopeFilter = 'all' | 'private' | 'team';
export type SortOrder = 'newest' | 'oldest' | 'name' | 'type' | 'findings';

export const TYPE_FILTERS: readonly TypeFilter[] = ['all', ...MEMORY_TYPES, 'unknown'];
export const AGE_FILTERS: Readonly<Record<AgeFilter, string>> = {
  all: 'any age',
  week: 'changed this week',
  month: 'changed this month',
  older: 'older than a month',
};
export const SORT_ORDERS: Readonly<Record<SortOrder, string>> = {
  newest: 'newest first',
  oldest: 'oldest first',
  name: 'name',
  type: 'type',
  findings: 'most findings',
};

export interface MemoryFilters {
  readonly type: TypeFilter;
  readonly age: AgeFilter;
  readonly finding: FindingFilter;
  readonly scope: ScopeFilter;
  readonly text: string;
  readonly sort: SortOrder;
}

export const DEFAULT_FILTERS: MemoryFilters = { type: 'all', age: 'all', finding: 'all', scope: 'all', text: '', sort: 'newest' };

const DAY_MS = 86_400_000;

function matchesAge(file: ReviewedMemoryFile, age: AgeFilter, now: number): boolean {
  const days = (now - Date.parse(file.mtime)) / DAY_MS;
  switch (age) {
    case 'all':
      return true;
    case 'week':
      return days <= 7;
    case 'month':
      return days <= 30;
    case 'older':
      return days > 30;
  }
}

function matchesFinding(file: ReviewedMemoryFile, finding: FindingFilter): boolean {
  if (finding === 'all') return true;
  if (finding === 'any') return file.findings.length > 0;
  if (finding === 'none') return file.findings.length === 0;
  return file.findings.includes(finding);
}

const label = (file: ReviewedMemoryFile) => (file.name ?? file.relativePath).toLowerCase();

/** The files to list, filtered and sorted as the user chose. */
export function filterFiles(files: readonly ReviewedMemoryFile[], filters: MemoryFilters, now: number): ReviewedMemoryFile[] {
  const text = filters.text.trim().toLowerCase();
  const kept = files.filter(
    (file) =>
      (filters.type === 'all' || (file.type ?? 'unknown') === filters.type) &&
      (filters.scope === 'all' || file.scope === filters.scope) &&
      matchesAge(file, filters.age, now) &&
      matchesFinding(file, filters.finding) &&
      (!text || `${file.name ?? ''} ${file.description ?? ''} ${file.relativePath}`.toLowerCase().includes(text)),
  );
  const byTime = (a: ReviewedMemoryFile, b: ReviewedMemoryFile) => Date.parse(b.mtime) - Date.parse(a.mtime);
  const sorters: Record<SortOrder, (a: ReviewedMemoryFile, b: ReviewedMemoryFile) => number> = {
    newest: byTime,
    oldest: (a, b) => -byTime(a, b),
    name: (a, b) => label(a).localeCompare(label(b)),
    type: (a, b) => (a.type ?? 'zz').localeCompare(b.type ?? 'zz') || label(a).localeCompare(label(b)),
    findings: (a, b) => b.findings.length - a.findings.length || label(a).localeCompare(label(b)),
  };
  return kept.sort((a, b) => sorters[filters.sort](a, b) || a.relativePath.localeCompare(b.relativePath));
}
