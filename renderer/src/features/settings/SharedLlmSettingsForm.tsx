import { useEffect, useState } from 'react';
import type { LlmSettingsPatch, LlmSettingsView } from '../../../../shared/jobs/llmSettings';
import { BaseUrlConfirm } from './BaseUrlConfirm';

export interface SharedLlmSettingsFormProps {
  readonly view: LlmSettingsView;
  readonly readOnly: boolean;
  readonly busy: boolean;
  readonly onSave: (patch: LlmSettingsPatch) => void;
}

/** What both backends use: the model, the spending cap and (desktop only) the API's base URL, which asks first. */
export function SharedLlmSettingsForm({ view, readOnly, busy, onSave }: SharedLlmSettingsFormProps) {
  const [model, setModel] = useState(view.model);
  const [baseUrl, setBaseUrl] = useState(view.baseUrl ?? '');
  const [cap, setCap] = useState(String(view.maxCostUsdPerJob));
  const [confirming, setConfirming] = useState<LlmSettingsPatch | null>(null);
  // Every view the engine sends (read or saved) shows what it holds.
  useEffect(() => {
    setModel(view.model);
    setBaseUrl(view.baseUrl ?? '');
    setCap(String(view.maxCostUsdPerJob));
  }, [view]);
  const capValue = Number(cap);
  const typedBaseUrl = baseUrl.trim() === '' ? null : baseUrl.trim();
  // Only the desktop app saves a base URL; the web shell never sends one (its server would refuse it).
  const baseUrlChanged = view.baseUrlEditable && typedBaseUrl !== view.baseUrl;
  const save = (patch: LlmSettingsPatch) => {
    setConfirming(null);
    onSave(patch);
  };
  return (
    <>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const patch: LlmSettingsPatch = {
            model: model.trim(),
            maxCostUsdPerJob: capValue,
            ...(baseUrlChanged ? { baseUrl: typedBaseUrl } : {}),
          };
          if (baseUrlChanged && typedBaseUrl !== null) setConfirming(patch);
          else save(patch);
        }}
      >
        <h3>Both backends</h3>
        <div className="field">
          <label htmlFor="llm-model">Model</label>
          <input id="llm-model" value={model} onChange={(event) => setModel(event.target.value)} spellCheck={false} />
        </div>
        <div className="field">
          <label htmlFor="llm-base-url">
            Base URL for the API key{' '}
            <span className="muted">
              (https, or http to this machine; empty: the Anthropic API; ANTHROPIC_BASE_URL, when set, always wins)
            </span>
          </label>
          <input
            id="llm-base-url"
            value={baseUrl}
            onChange={(event) => setBaseUrl(event.target.value)}
            placeholder="https://api.anthropic.com"
            spellCheck={false}
            disabled={!view.baseUrlEditable}
          />
          {view.baseUrlEditable ? null : (
            <p className="muted small">
              Your API key goes to the base URL, so only the desktop app changes it. Here, set ANTHROPIC_BASE_URL where ccmem runs.
            </p>
          )}
          {view.baseUrlSource === 'environment' && view.baseUrl !== null ? (
            <p className="muted small">ANTHROPIC_BASE_URL is set, so the saved base URL is not used.</p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="llm-cap">
            Spending cap per job (US$) <span className="muted">(a subscription is not counted in dollars; the token cap still holds)</span>
          </label>
          <input id="llm-cap" type="number" min={0.01} step={0.01} value={cap} onChange={(event) => setCap(event.target.value)} />
        </div>
        <div className="dialog-buttons">
          <button type="submit" disabled={readOnly || busy || !(capValue > 0) || model.trim() === ''}>
            Save settings
          </button>
        </div>
      </form>
      {confirming?.baseUrl ? (
        <BaseUrlConfirm url={confirming.baseUrl} onConfirm={() => save(confirming)} onCancel={() => setConfirming(null)} />
      ) : null}
    </>
  );
}
