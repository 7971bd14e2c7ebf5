import { reviewedDreamsOn } from '../../../../shared/jobs/backgroundJobs';
import type { ProjectSummary } from '../../../../shared/model/home';
import { useMutation } from '../../components/useMutation';
import { navigate } from '../../stores/navigationStore';
import { ClaudeCodeAutoDreamOffer } from './ClaudeCodeAutoDreamOffer';
import { updateBackgroundSettings, useInboxStore } from './inboxStore';

/** "Reviewed dreams" for one project: dreams on Claude Code's schedule whose edits wait for approval. */
export function ReviewedDreamsPanel({ project, readOnly }: { readonly project: ProjectSummary; readonly readOnly: boolean }) {
  const status = useInboxStore((s) => s.status);
  const saving = useMutation();
  if (!status) return null;
  const on = reviewedDreamsOn(status.settings, project);
  const forAll = status.settings.reviewedDreams.mode === 'all';
  const autoDream = status.claudeCodeAutoDream.find((state) => state.configRoot === project.configRoot);
  return (
    <section aria-label="Reviewed dreams" className="reviewed-dreams">
      <label className="checkbox">
        <input
          type="checkbox"
          checked={on}
          disabled={readOnly || forAll}
          onChange={(event) =>
            void saving.run(() =>
              updateBackgroundSettings({
                project: { configRoot: project.configRoot, slug: project.slug, reviewedDreams: event.target.checked },
              }),
            )
          }
        />{' '}
        Reviewed dreams for this project
      </label>
      <p className="muted small">
        When Claude Code would dream (a day and five sessions after the last consolidation), the app runs the dream instead, in the
        background. It holds Claude Code&apos;s lock for the run, so Claude Code does not dream over the same memory, and every edit waits
        here for your approval: nothing is written until you apply it.
        {forAll ? (
          <>
            {' '}
            On for every project;{' '}
            <button type="button" className="link" onClick={() => navigate({ page: 'settings' })}>
              change in Settings
            </button>
            .
          </>
        ) : null}
      </p>
      {saving.error ? <p className="error">{saving.error}</p> : null}
      {on && autoDream ? <ClaudeCodeAutoDreamOffer state={autoDream} /> : null}
    </section>
  );
}
