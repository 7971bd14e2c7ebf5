import { useEffect, useRef, useState } from 'react';
import type { ConnectionTestResult, LlmBackend, LlmBackendChoice, LlmSettingsView } from '../../../../shared/jobs/llmSettings';
import type { Result } from '../../../../shared/result';
import { api } from '../../api/connectApi';
import { useConnectionStore } from '../../api/connectionStore';
import { MutationStatus } from '../../components/MutationStatus';
import { PendingState } from '../../components/PendingState';
import { useMutation } from '../../components/useMutation';
import { ApiKeyBackend } from './ApiKeyBackend';
import { ClaudeCodeBackend } from './ClaudeCodeBackend';
import { ConnectionTestLine } from './ConnectionTestLine';
import { loadLlmSettings, openLlmSettings, removeApiKey, saveApiKey, saveLlmSettings, useLlmSettingsStore } from './llmSettingsStore';
import { BACKEND_TEXT } from './llmTexts';
import { SharedLlmSettingsForm } from './SharedLlmSettingsForm';

const CHOICES: readonly { readonly value: LlmBackendChoice; readonly label: string }[] = [
  { value: 'auto', label: 'Automatic: the API key when one is set, else Claude Code' },
  { value: 'api', label: 'API key' },
  { value: 'claude-code', label: 'Claude Code (your own claude and its login)' },
];

/**
 * The model settings for dreams and extraction replays, and which backend runs them: the Anthropic API with a key,
 * or the user's own Claude Code with its login. The key is sent once to the engine and never comes back: the page
 * only learns whether there is one and where it lives.
 */
export function LlmSettingsSection({ readOnly }: { readonly readOnly: boolean }) {
  const view = useLlmSettingsStore((s) => s.view);
  const loadError = useLlmSettingsStore((s) => s.loadError);
  // Shown at once when picked; the saved choice comes back with the view.
  const [backend, setBackend] = useState<LlmBackendChoice>(view?.backend ?? 'auto');
  const [test, setTest] = useState<ConnectionTestResult | null>(null);
  // Saves and tests share the busy state and the line that says how the last one went.
  const saving = useMutation();
  const { busy } = saving;
  useEffect(() => {
    if (view) setBackend(view.backend);
  }, [view]);

  const reconnections = useConnectionStore((s) => s.reconnections);
  const opened = useRef(false);
  useEffect(() => {
    if (!opened.current) {
      opened.current = true;
      void openLlmSettings();
      return;
    }
    // Read again when the connection comes back after a failed first read; a loaded form keeps what is typed in it.
    if (useLlmSettingsStore.getState().view === null) void loadLlmSettings();
  }, [reconnections]);

  async function save(write: () => Promise<Result<LlmSettingsView>>, done: string): Promise<void> {
    const result = await saving.run(write, { done: () => done });
    if (!result.ok && view) setBackend(view.backend);
  }

  async function testConnection(via: LlmBackend): Promise<void> {
    setTest(null);
    const result = await saving.run(() => api.testLlmConnection({ via }));
    if (result.ok) setTest(result.value);
  }

  if (!view) return loadError ? <p className="error">{loadError}</p> : <PendingState label="Reading the model settings" />;
  return (
    <section aria-label="Model settings">
      <h2>Model (dreams and extraction replays)</h2>
      <fieldset className="field" aria-label="Backend">
        <legend>Run the model through</legend>
        {CHOICES.map((choice) => (
          <label key={choice.value} className="choice">
            <input
              type="radio"
              name="llm-backend"
              value={choice.value}
              checked={backend === choice.value}
              disabled={readOnly || busy}
              onChange={() => {
                setBackend(choice.value);
                void save(() => saveLlmSettings({ backend: choice.value }), 'Backend saved.');
              }}
            />{' '}
            {choice.label}
          </label>
        ))}
        <p className={view.effectiveBackend ? 'muted' : 'warning'} aria-label="Jobs run through">
          {view.effectiveBackend
            ? `Jobs started now run through ${BACKEND_TEXT[view.effectiveBackend]}.`
            : 'Jobs cannot run yet: set an API key, or install Claude Code and log in.'}
        </p>
      </fieldset>
      <ApiKeyBackend
        view={view}
        readOnly={readOnly}
        busy={busy}
        onSaveKey={(key) => void save(() => saveApiKey(key), 'Key saved.')}
        onRemoveKey={() => void save(removeApiKey, 'Key removed.')}
        onTest={() => void testConnection('api')}
      />
      <ClaudeCodeBackend
        view={view}
        readOnly={readOnly}
        busy={busy}
        onSavePath={(claudePath) => void save(() => saveLlmSettings({ claudePath }), 'Path saved.')}
        onTest={() => void testConnection('claude-code')}
      />
      <SharedLlmSettingsForm
        view={view}
        readOnly={readOnly}
        busy={busy}
        onSave={(patch) => void save(() => saveLlmSettings(patch), 'Settings saved.')}
      />
      <MutationStatus mutation={saving} />
      {test ? <ConnectionTestLine test={test} /> : null}
    </section>
  );
}
