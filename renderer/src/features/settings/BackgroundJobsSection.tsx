import { useEffect, useState } from 'react';
import {
  DAILY_TOKEN_BUDGET_LIMITS,
  MIN_PROMPTS_LIMITS,
  type BackgroundSettingsPatch,
  type ReviewedDreamsMode,
} from '../../../../shared/jobs/backgroundJobs';
import { MutationStatus } from '../../components/MutationStatus';
import { PendingState } from '../../components/PendingState';
import { useMutation } from '../../components/useMutation';
import { BackgroundNotice } from '../dreams/BackgroundNotice';
import { ClaudeCodeAutoDreamOffer } from '../dreams/ClaudeCodeAutoDreamOffer';
import { updateBackgroundSettings, useInboxStore } from '../dreams/inboxStore';

const MODES: readonly { readonly mode: ReviewedDreamsMode; readonly label: string }[] = [
  { mode: 'off', label: 'Off' },
  { mode: 'all', label: 'Every project' },
  { mode: 'chosen', label: 'The projects I turn it on for (on their Dreams page)' },
];

/** Jobs the app runs by itself: reviewed dreams, automatic extraction replays, and the daily token budget they share. */
export function BackgroundJobsSection({ readOnly }: { readonly readOnly: boolean }) {
  const status = useInboxStore((s) => s.status);
  const loadError = useInboxStore((s) => s.error);
  const [budget, setBudget] = useState('');
  const [minPrompts, setMinPrompts] = useState('');
  const saving = useMutation();
  useEffect(() => {
    if (!status) return;
    setBudget(String(status.settings.dailyTokenBudget));
    setMinPrompts(String(status.settings.autoExtraction.minPrompts));
  }, [status?.settings.dailyTokenBudget, status?.settings.autoExtraction.minPrompts]);
  if (!status) return loadError ? <p className="error">{loadError}</p> : <PendingState label="Reading the background jobs' settings" />;
  const { settings } = status;

  async function save(patch: BackgroundSettingsPatch, done: string): Promise<void> {
    await saving.run(() => updateBackgroundSettings(patch), { done: () => done });
  }

  const budgetValue = Number(budget);
  const promptsValue = Number(minPrompts);
  const chosen = settings.reviewedDreams.projects.length;
  return (
    <section aria-label="Background jobs">
      <h2>Background jobs</h2>
      {status.active ? null : (
        <p className="muted">
          {readOnly ? 'This window is read-only: ' : ''}background jobs run while the app or <code>ccmem serve</code> runs (not read-only).
        </p>
      )}
      <fieldset>
        <legend>Reviewed dreams</legend>
        <p className="muted small">
          When Claude Code&apos;s own dream would run for a project (a day and five sessions after the last), the app runs one in the
          background instead, holding Claude Code&apos;s lock so the two do not both consolidate one memory. Its edits wait in the review
          inbox on the Dreams page; nothing is written until you apply it.
        </p>
        {MODES.map(({ mode, label }) => (
          <label key={mode} className="checkbox">
            <input
              type="radio"
              name="reviewed-dreams"
              checked={settings.reviewedDreams.mode === mode}
              disabled={readOnly}
              onChange={() => void save({ reviewedDreams: { mode } }, 'Saved.')}
            />{' '}
            {label}
            {mode === 'chosen' && chosen > 0 ? <span className="muted"> ({chosen} chosen)</span> : null}
          </label>
        ))}
        {settings.reviewedDreams.mode !== 'off' || settings.autoDreamTurnedOff.length > 0
          ? status.claudeCodeAutoDream.map((state) => <ClaudeCodeAutoDreamOffer key={state.configRoot} state={state} />)
          : null}
      </fieldset>
      <fieldset>
        <legend>Automatic extraction replays</legend>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={settings.autoExtraction.enabled}
            disabled={readOnly}
            onChange={(event) => void save({ autoExtraction: { enabled: event.target.checked } }, 'Saved.')}
          />{' '}
          Replay memory extraction for sessions that ended without one
        </label>
        <p className="muted small">
          A session that ended (no change for half an hour) with no memory saved by Claude Code and no memory written gets an extraction
          replay; its proposals wait in the review inbox. Only sessions that end after you turn this on.
        </p>
        <form
          className="field inline-field"
          onSubmit={(event) => {
            event.preventDefault();
            void save({ autoExtraction: { minPrompts: promptsValue } }, 'Saved.');
          }}
        >
          <label htmlFor="auto-extraction-prompts">At least this many prompts</label>
          <input
            id="auto-extraction-prompts"
            type="number"
            min={MIN_PROMPTS_LIMITS.min}
            max={MIN_PROMPTS_LIMITS.max}
            value={minPrompts}
            onChange={(event) => setMinPrompts(event.target.value)}
          />
          <button
            type="submit"
            disabled={
              readOnly || !Number.isInteger(promptsValue) || promptsValue < MIN_PROMPTS_LIMITS.min || promptsValue > MIN_PROMPTS_LIMITS.max
            }
          >
            Save
          </button>
        </form>
      </fieldset>
      <fieldset>
        <legend>Daily token budget</legend>
        <p aria-label="Budget used today">
          Used today: {status.budget.spent.toLocaleString('en')} of {status.budget.limit.toLocaleString('en')} tokens (input and output,
          every background job together; jobs you start yourself do not count).
        </p>
        <form
          className="field inline-field"
          onSubmit={(event) => {
            event.preventDefault();
            void save({ dailyTokenBudget: budgetValue }, 'Saved.');
          }}
        >
          <label htmlFor="daily-token-budget">Tokens per day</label>
          <input
            id="daily-token-budget"
            type="number"
            min={DAILY_TOKEN_BUDGET_LIMITS.min}
            max={DAILY_TOKEN_BUDGET_LIMITS.max}
            step={10_000}
            value={budget}
            onChange={(event) => setBudget(event.target.value)}
          />
          <button
            type="submit"
            disabled={
              readOnly ||
              !Number.isInteger(budgetValue) ||
              budgetValue < DAILY_TOKEN_BUDGET_LIMITS.min ||
              budgetValue > DAILY_TOKEN_BUDGET_LIMITS.max
            }
          >
            Save
          </button>
        </form>
      </fieldset>
      <BackgroundNotice status={status} />
      <MutationStatus mutation={saving} />
    </section>
  );
}
