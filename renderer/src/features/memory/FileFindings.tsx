import { FINDING_INFO } from '../../../../shared/memory/findingCodes';
import type { MemoryReview } from '../../../../shared/memory/memoryReview';
import { FindingActions } from './FindingActions';
import { FindingBadge } from './MemoryBadges';
import { selectFile } from './memoryReviewStore';

/** The findings about one file, each with what it means and its cures; a near-duplicate links to its twin. */
export function FileFindings({ review, path }: { readonly review: MemoryReview; readonly path: string }) {
  const findings = review.findings.filter((f) => f.file === path);
  if (findings.length === 0) return null;
  return (
    <ul className="plain-list finding-list" aria-label="Findings for this file">
      {findings.map((f, index) => (
        <li key={`${f.code}:${f.line ?? ''}:${index}`}>
          <FindingBadge code={f.code} severity={f.severity} /> {f.message}
          {f.code === 'duplicate.near' && f.related ? (
            <>
              {' '}
              <button type="button" className="link" onClick={() => selectFile(f.related)}>
                open {f.related}
              </button>
            </>
          ) : null}
          <span className="muted small"> — {FINDING_INFO[f.code].help}</span> <FindingActions finding={f} review={review} />
        </li>
      ))}
    </ul>
  );
}
