import { curesFor } from '../../../../shared/memory/fixes/fixCatalog';
import type { MemoryFinding } from '../../../../shared/memory/findings';
import type { MemoryReview } from '../../../../shared/memory/memoryReview';
import { previewFix } from './memoryReviewStore';

export interface FindingActionsProps {
  readonly finding: MemoryFinding;
  readonly review: MemoryReview;
}

/** Where a finding is, in a few words, for the title of its fix. */
export function findingPlace(finding: MemoryFinding): string {
  return finding.file === null ? 'the folder' : finding.line !== null ? `${finding.file}:${finding.line}` : finding.file;
}

/** The one-click cures of a finding; each opens a preview of its diff before anything is written. */
export function FindingActions({ finding, review }: FindingActionsProps) {
  const cures = curesFor(
    finding,
    review.files.map((f) => f.relativePath),
  );
  if (cures.length === 0) return null;
  return (
    <span className="finding-actions">
      {cures.map((cure) => (
        <button
          key={cure.label}
          type="button"
          className="small-button"
          disabled={review.readOnlyReason !== null}
          title={review.readOnlyReason ?? (cure.proposal ? 'A proposal: review it before anything is written' : 'Shows the change first')}
          onClick={() => previewFix({ title: `${cure.label} — ${findingPlace(finding)}`, fixes: [cure.fix] })}
        >
          {cure.label}
          {cure.proposal ? '…' : ''}
        </button>
      ))}
    </span>
  );
}
