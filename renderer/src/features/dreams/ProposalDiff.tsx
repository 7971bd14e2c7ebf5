import type { DiffPart } from '../../../../shared/jobs/diffParts';
import type { FileChoice } from '../../../../shared/jobs/proposalChoices';
import { hunkTaken } from '../../../../shared/jobs/proposalChoices';

const CONTEXT_LINES = 3;

export interface ProposalDiffProps {
  readonly path: string;
  readonly parts: readonly DiffPart[];
  readonly choice: FileChoice;
  /** Null when hunks cannot be chosen one by one (a new or deleted file, or a read-only view). */
  readonly onToggleHunk: ((hunk: number) => void) | null;
}

/** Splits text into lines, keeping a last line without a line end. */
function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function Lines({ lines, prefix, className }: { readonly lines: readonly string[]; readonly prefix: string; readonly className: string }) {
  return (
    <>
      {lines.map((line, index) => (
        <span key={index} className={className}>
          {prefix}
          {line}
          {'\n'}
        </span>
      ))}
    </>
  );
}

/**
 * A proposed change as hunks with a few lines of context, each hunk with its own checkbox. Text is shown
 * as text only: nothing in a proposal (links, images, HTML) is rendered or fetched.
 */
export function ProposalDiff({ path, parts, choice, onToggleHunk }: ProposalDiffProps) {
  let hunk = -1;
  return (
    <div className="proposal-diff">
      {parts.map((part, index) => {
        if (part.kind === 'same') return null;
        hunk++;
        const number = hunk;
        const before = index > 0 ? linesOf(parts[index - 1].after).slice(-CONTEXT_LINES) : [];
        const after = index + 1 < parts.length ? linesOf(parts[index + 1].before).slice(0, CONTEXT_LINES) : [];
        return (
          <div key={index} className={hunkTaken(choice, number) ? 'hunk taken' : 'hunk'}>
            {onToggleHunk ? (
              <label className="hunk-toggle">
                <input type="checkbox" checked={hunkTaken(choice, number)} onChange={() => onToggleHunk(number)} />
                Take change {number + 1} in {path}
              </label>
            ) : null}
            <pre className="snapshot-diff">
              <Lines lines={before} prefix="  " className="diff-context" />
              <Lines lines={linesOf(part.before)} prefix="- " className="diff-removed" />
              <Lines lines={linesOf(part.after)} prefix="+ " className="diff-added" />
              <Lines lines={after} prefix="  " className="diff-context" />
            </pre>
          </div>
        );
      })}
    </div>
  );
}
