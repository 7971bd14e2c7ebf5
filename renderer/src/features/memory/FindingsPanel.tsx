import { FINDING_INFO, SEVERITY_ORDER } from '../../../../shared/memory/findingCodes';
import type { MemoryReview } from '../../../../shared/memory/memoryReview';
import { FindingActions } from './FindingActions';
import { FindingBadge } from './MemoryBadges';

/** Every finding of the folder, most serious first, with its cures; a click opens the file it is about. */
export function FindingsPanel({
  review,
  files,
  onSelect,
}: {
  readonly review: MemoryReview;
  readonly files: ReadonlySet<string>;
  readonly onSelect: (path: string) => void;
}) {
  const { findings } = review;
  const sorted = [...findings].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  return (
    <section aria-label="Findings">
      <h2>Findings ({findings.length})</h2>
      {sorted.length === 0 ? <p className="muted">Nothing to report.</p> : null}
      <ul className="plain-list finding-list">
        {sorted.map((f, index) => (
          <li key={`${f.code}:${f.file ?? ''}:${f.line ?? ''}:${index}`}>
            <FindingBadge code={f.code} severity={f.severity} />{' '}
            {f.file && files.has(f.file) ? (
              <button type="button" className="link" onClick={() => onSelect(f.file as string)}>
                {f.file}
                {f.line !== null ? `:${f.line}` : ''}
              </button>
            ) : (
              <code>{f.file === null ? 'folder' : `${f.file}${f.line !== null ? `:${f.line}` : ''}`}</code>
            )}{' '}
            {f.message}
            <span className="muted small" title={FINDING_INFO[f.code].help}>
              {' '}
              ({f.code})
            </span>{' '}
            <FindingActions finding={f} review={review} />
          </li>
        ))}
      </ul>
    </section>
  );
}
