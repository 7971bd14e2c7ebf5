import { FINDING_INFO } from '../../../../shared/memory/findingCodes';
import { curesFor } from '../../../../shared/memory/fixes/fixCatalog';
import type { MemoryFix } from '../../../../shared/memory/fixes/memoryFix';
import type { MemoryReview, ReviewedMemoryFile } from '../../../../shared/memory/memoryReview';
import { DEFAULT_FILTERS, type MemoryFilters } from './memoryFilters';
import { previewFix } from './memoryReviewStore';
import { countOf } from '../../../../shared/text/plural';

export interface BulkActionsProps {
  readonly review: MemoryReview;
  /** The files the list shows now, filtered. */
  readonly files: readonly ReviewedMemoryFile[];
  readonly filters: MemoryFilters;
}

function isFiltered(filters: MemoryFilters): boolean {
  return (Object.keys(DEFAULT_FILTERS) as (keyof MemoryFilters)[]).some((key) => key !== 'sort' && filters[key] !== DEFAULT_FILTERS[key]);
}

/**
 * Fixes for the whole filtered list, each previewed as one change set with one undo: the one-click cure of the
 * finding the list is filtered by, on every file shown, and pruning every file shown.
 */
export function BulkActions({ review, files, filters }: BulkActionsProps) {
  // A symlinked file is never written through, so it is not pruned either.
  const prunable = files.filter((file) => !file.isSymlink);
  if (!isFiltered(filters) || files.length === 0 || review.readOnlyReason !== null) return null;
  const shown = new Set(files.map((file) => file.relativePath));
  const paths = review.files.map((file) => file.relativePath);
  const code = filters.finding;
  const cureFixes: MemoryFix[] = [];
  let cureLabel: string | null = null;
  if (code !== 'all' && code !== 'any' && code !== 'none') {
    for (const finding of review.findings) {
      if (finding.code !== code || finding.file === null || !shown.has(finding.file)) continue;
      // Only one-click cures go in bulk; merging is a proposal for each pair.
      const cure = curesFor(finding, paths).find((candidate) => !candidate.proposal);
      if (!cure) continue;
      cureLabel ??= cure.label;
      cureFixes.push(cure.fix);
    }
  }
  return (
    <div className="bulk-actions" role="group" aria-label="For every file shown">
      {cureLabel !== null && cureFixes.length > 0 && code !== 'scan.beyond-cap' ? (
        <button
          type="button"
          onClick={() =>
            previewFix({
              title: `${cureLabel}: ${countOf(cureFixes.length, FINDING_INFO[code as keyof typeof FINDING_INFO].label)}`,
              fixes: cureFixes,
            })
          }
        >
          {cureLabel} ({cureFixes.length})…
        </button>
      ) : null}
      {prunable.length > 0 ? (
        <button
          type="button"
          className="danger"
          onClick={() =>
            previewFix({
              title: `Prune ${countOf(prunable.length, 'file')} shown`,
              fixes: prunable.map((file): MemoryFix => ({ kind: 'prune', file: file.relativePath })),
            })
          }
        >
          Prune {countOf(prunable.length, 'file')} shown…
        </button>
      ) : null}
    </div>
  );
}
