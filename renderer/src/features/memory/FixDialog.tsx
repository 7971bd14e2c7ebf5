import { useEffect, useState } from 'react';
import type { MemoryFix, MemoryFixPlan } from '../../../../shared/memory/fixes/memoryFix';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { MemoryConflictDetails } from '../../../../shared/memory/memoryReview';
import { memoryConflictOf } from '../../../../shared/result';
import { api } from '../../api/connectApi';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Modal } from '../../components/Modal';
import { PendingState } from '../../components/PendingState';
import { countOf } from '../../../../shared/text/plural';
import { useMutation } from '../../components/useMutation';
import { useRequest } from '../../components/useRequest';
import { ConflictView } from './ConflictView';
import { FileChangeView } from './FileChangeView';
import { FixValues } from './FixValues';
import { previewFix, refreshAll, type FixPreview } from './memoryReviewStore';
import { applyFix } from './memoryWrites';

export interface FixDialogProps {
  readonly folder: MemoryFolderRef;
  readonly preview: FixPreview;
  /** The file open in the review, which a prune or a merge may remove. */
  readonly selected: string | null;
}

/** Diffs of the first files open; the rest fold, so a bulk prune of hundreds stays readable. */
const OPEN_DIFFS = 4;
const REPLAN_DELAY_MS = 300;

/**
 * A fix, or a set of them, shown as the diff of every file it would change before anything is written. Applying
 * writes exactly what is shown, as one change set with one undo; a file that changed meanwhile shows both versions.
 */
export function FixDialog({ folder, preview, selected }: FixDialogProps) {
  const [fixes, setFixes] = useState<readonly MemoryFix[]>(preview.fixes);
  const [planned, setPlanned] = useState<readonly MemoryFix[]>(preview.fixes);
  const [revision, setRevision] = useState(0);
  const applying = useMutation();
  const busy = applying.busy;
  const [conflict, setConflict] = useState<{ details: MemoryConflictDetails; mine: string } | null>(null);
  // Typing a value plans again once the typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => setPlanned(fixes), REPLAN_DELAY_MS);
    return () => clearTimeout(timer);
  }, [fixes]);
  const plan = useRequest(`${JSON.stringify(planned)}\0${revision}`, () => api.planMemoryFix({ folder, fixes: [...planned] }));
  const shown: MemoryFixPlan | null = plan.status === 'done' ? plan.value : null;
  const close = () => previewFix(null);

  const apply = (current: MemoryFixPlan) =>
    applying.run(() => applyFix(folder, current, selected), {
      takeOver: (error) => {
        const details = memoryConflictOf(error);
        if (details) setConflict({ details, mine: current.files.find((file) => file.path === details.relativePath)?.after ?? '' });
        return details !== null;
      },
    });

  const single = shown && shown.fixes.length === 1 ? shown.fixes[0] : null;
  const skipped = shown?.outcomes.filter((outcome) => !outcome.applied) ?? [];
  const nothing = shown !== null && shown.files.length === 0;
  return (
    <Modal label={preview.title} className="fix-dialog" onClose={() => (busy ? undefined : close())}>
      <div className="fix-dialog-body">
        <h3>{preview.title}</h3>
        {conflict ? (
          <ConflictView
            mine={conflict.mine}
            conflict={conflict.details}
            onUseDisk={() => {
              close();
              refreshAll();
            }}
            keepMineLabel="Plan the fix again on the disk version"
            onKeepMine={() => {
              setConflict(null);
              setRevision((r) => r + 1);
            }}
          />
        ) : (
          <>
            {plan.status === 'loading' ? <PendingState label="Planning the fix and its diff" /> : null}
            {plan.status === 'error' ? <p className="error">{plan.message}</p> : null}
            {single ? (
              // The person's values where they gave one, the planner's choice for the rest.
              <FixValues
                fix={fixes.length === 1 ? ({ ...single, ...fixes[0] } as MemoryFix) : single}
                onChange={(fix) => setFixes([fix])}
              />
            ) : null}
            {shown ? (
              <>
                <p className="fix-summary" aria-label="What it does">
                  {nothing ? 'Nothing to change.' : `${shown.summary}: ${countOf(shown.files.length, 'file')}.`}
                </p>
                {skipped.length > 0 ? (
                  <ul className="plain-list fix-skipped" aria-label="Not done">
                    {skipped.map((outcome, index) => (
                      <li key={index} className="muted small">
                        {outcome.note}
                      </li>
                    ))}
                  </ul>
                ) : null}
                <ErrorAlert error={shown.refusal} />
                <div className="fix-files" aria-label="Planned changes">
                  {shown.files.map((file, index) => (
                    <FileChangeView key={file.path} file={file} open={index < OPEN_DIFFS} />
                  ))}
                </div>
              </>
            ) : null}
            <ErrorAlert error={applying.error} />
            <div className="dialog-buttons">
              {shown && !nothing && !shown.refusal ? (
                <button
                  type="button"
                  className="primary"
                  disabled={busy || planned !== fixes || plan.status !== 'done'}
                  onClick={() => void apply(shown)}
                >
                  {busy ? 'Applying…' : 'Apply'}
                </button>
              ) : null}
              <button type="button" onClick={close} disabled={busy}>
                {nothing || shown?.refusal ? 'Close' : 'Cancel'}
              </button>
            </div>
            <p className="muted small">Every file it changes goes into history first; one undo puts them all back.</p>
          </>
        )}
      </div>
    </Modal>
  );
}
