import type { IndexView, MemoryReview } from '../../../../shared/memory/memoryReview';
import { MAX_ENTRYPOINT_BYTES, MAX_ENTRYPOINT_LINES, MAX_MEMORY_FILES } from '../../../../shared/memory/modelView';
import { countOf } from '../../../../shared/text/plural';

function IndexLoad({
  index,
  label,
  onSelect,
}: {
  readonly index: IndexView;
  readonly label: string;
  readonly onSelect: (path: string) => void;
}) {
  const { loaded } = index;
  const cut = loaded.wasLineTruncated || loaded.wasByteTruncated;
  return (
    <div className="index-load">
      <p className="facts-line">
        <strong>{index.relativePath}</strong>: {loaded.lineCount} of {MAX_ENTRYPOINT_LINES} lines, {loaded.charCount.toLocaleString()} of{' '}
        {MAX_ENTRYPOINT_BYTES.toLocaleString()} characters,{' '}
        <span title="characters ÷ 4; not a tokenizer count">about {index.estimatedTokens.toLocaleString()} tokens (estimate)</span>
        {cut ? <span className="badge finding finding-error">cut when loaded</span> : <span className="badge">loaded whole</span>}{' '}
        <button type="button" className="link small" onClick={() => onSelect(index.relativePath)}>
          open {index.relativePath}
        </button>
      </p>
      <pre className="raw-text model-text" aria-label={label} tabIndex={0}>
        {loaded.content}
      </pre>
    </div>
  );
}

/** What Claude Code puts in front of the model from this folder: the index every session, and which files recall can offer. */
export function ModelViewPanel({ review, onSelect }: { readonly review: MemoryReview; readonly onSelect: (path: string) => void }) {
  const outside = review.files.filter((f) => !f.inScan);
  const inScan = review.files.filter((f) => f.inScan);
  return (
    <section className="model-view" aria-label="What the model sees">
      <h2>What the model sees</h2>
      <p className="muted">
        Every session starts with the index below, exactly as Claude Code loads it (trimmed, at most {MAX_ENTRYPOINT_LINES} lines and{' '}
        {MAX_ENTRYPOINT_BYTES.toLocaleString()} characters, with a warning line when it was cut).
      </p>
      {review.index ? (
        <IndexLoad index={review.index} label="MEMORY.md" onSelect={onSelect} />
      ) : (
        <p className="muted">There is no MEMORY.md: nothing of this memory is loaded up front.</p>
      )}
      {review.teamIndex ? <IndexLoad index={review.teamIndex} label="Team index" onSelect={onSelect} /> : null}
      <h3>Offered for recall</h3>
      <p>
        Per prompt, a side query picks up to 5 topic files from the {Math.min(review.files.length, MAX_MEMORY_FILES)} newest
        {review.files.length > MAX_MEMORY_FILES ? ` of ${review.files.length}` : ''} by change time; each is read up to 200 lines or 4,096
        bytes and given with its age.
      </p>
      {outside.length > 0 ? (
        <div>
          <p className="warning">
            {outside.length} topic {outside.length === 1 ? 'file is' : 'files are'} older than the {MAX_MEMORY_FILES} newest and never
            offered:
          </p>
          <ul className="plain-list outside-list" aria-label="Never offered for recall">
            {outside.map((f) => (
              <li key={f.relativePath}>
                <button type="button" className="link" onClick={() => onSelect(f.relativePath)}>
                  {f.relativePath}
                </button>{' '}
                <span className="muted">{f.age}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="muted">All topic files are within the {MAX_MEMORY_FILES} newest.</p>
      )}
      <details>
        <summary>The recall manifest ({countOf(inScan.length, 'line')})</summary>
        <pre className="raw-text" aria-label="Recall manifest">
          {inScan.map((f) => f.manifestLine).join('\n')}
        </pre>
      </details>
    </section>
  );
}
