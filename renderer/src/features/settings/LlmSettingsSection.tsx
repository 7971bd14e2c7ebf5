import { useEffect, useState } from 'react';
import type { BaseUrlSource, ConnectionTestResult, LlmSettingsPatch, LlmSettingsView } from '../../../../shared/jobs/llmSettings';
import type { Result } from '../../../../shared/result';
import { api } from '../../api/connectApi';

const KEY_SOURCE_TEXT = {
  environment: 'from ANTHROPIC_API_KEY',
  keychain: 'stored in the system keychain',
  session: 'entered here, kept in memory until the server stops',
  none: 'none',
} as const;

const BASE_URL_SOURCE_TEXT: Readonly<Record<BaseUrlSource, string>> = {
  environment: 'from ANTHROPIC_BASE_URL',
  settings: 'saved here',
  default: 'the Anthropic API',
};

/** The host a base URL names, or null when it is not a URL (the engine then says what is wrong). */
function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** Asks before a new base URL is saved: the API key goes to that host with every request. */
function BaseUrlConfirm({
  url,
  onConfirm,
  onCancel,
}: {
  readonly url: string;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}) {
  const host = hostOf(url) ?? url;
  return (
    <div className="dialog" role="dialog" aria-label="Confirm base URL">
      <h3>Send your API key to {host}?</h3>
      <p>
        Every request for dreams and extraction replays, with your API key, will go to <code>{host}</code> instead of the Anthropic API.
        Only continue if you run this server yourself or trust whoever does.
      </p>
      <div className="dialog-buttons">
        <button type="button" className="danger" onClick={onConfirm}>
          Send my key to {host}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/**
 * The model settings for dreams and extraction replays. The key is sent once to the engine and never comes
 * back: the page only learns whether there is one and where it lives.
 */
export function LlmSettingsSection({ readOnly }: { readonly readOnly: boolean }) {
  const [view, setView] = useState<LlmSettingsView | null>(null);
  const [model, setModel] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [cap, setCap] = useState('');
  const [key, setKey] = useState('');
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [test, setTest] = useState<ConnectionTestResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<LlmSettingsPatch | null>(null);

  function show(next: LlmSettingsView): void {
    setView(next);
    setModel(next.model);
    setBaseUrl(next.baseUrl ?? '');
    setCap(String(next.maxCostUsdPerJob));
  }

  useEffect(() => {
    void api
      .getLlmSettings({})
      .then((result) => (result.ok ? show(result.value) : setMessage({ text: result.error.message, error: true })));
  }, []);

  async function save(action: () => Promise<Result<LlmSettingsView>>, done: string): Promise<void> {
    setBusy(true);
    const result = await action();
    setBusy(false);
    if (result.ok) {
      show(result.value);
      setMessage({ text: done, error: false });
    } else setMessage({ text: result.error.message, error: true });
  }

  if (!view) return message ? <p className="error">{message.text}</p> : <p className="muted">Loading…</p>;
  const capValue = Number(cap);
  const typedBaseUrl = baseUrl.trim() === '' ? null : baseUrl.trim();
  // Only the desktop app saves a base URL; the web shell never sends one (its server would refuse it).
  const baseUrlChanged = view.baseUrlEditable && typedBaseUrl !== view.baseUrl;
  const saveSettings = (patch: LlmSettingsPatch) => {
    setConfirming(null);
    void save(() => api.updateLlmSettings(patch), 'Settings saved.');
  };
  return (
    <section aria-label="Model settings">
      <h2>Model (dreams and extraction replays)</h2>
      <dl className="facts">
        <dt>API key</dt>
        <dd aria-label="API key status">{KEY_SOURCE_TEXT[view.keySource]}</dd>
        <dt>Requests go to</dt>
        <dd aria-label="Requests go to">
          <code>{view.effectiveBaseUrl}</code> <span className="muted">({BASE_URL_SOURCE_TEXT[view.baseUrlSource]})</span>
        </dd>
      </dl>
      <form
        className="field"
        onSubmit={(event) => {
          event.preventDefault();
          const typed = key;
          // The field is cleared at once: the key is never shown again.
          setKey('');
          void save(() => api.setApiKey({ key: typed }), 'Key saved.');
        }}
      >
        <label htmlFor="llm-key">
          New API key{' '}
          <span className="muted">
            ({view.keyPersistence === 'keychain' ? 'kept encrypted in the system keychain' : 'kept in memory only, until this server stops'}
            )
          </span>
        </label>
        <input
          id="llm-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={key}
          onChange={(event) => setKey(event.target.value)}
        />
        <div className="dialog-buttons">
          <button type="submit" disabled={readOnly || busy || key.trim() === ''}>
            Save key
          </button>
          <button
            type="button"
            disabled={readOnly || busy || (view.keySource !== 'keychain' && view.keySource !== 'session')}
            onClick={() => void save(() => api.clearApiKey({}), 'Key removed.')}
          >
            Remove saved key
          </button>
        </div>
      </form>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const patch: LlmSettingsPatch = {
            model: model.trim(),
            maxCostUsdPerJob: capValue,
            ...(baseUrlChanged ? { baseUrl: typedBaseUrl } : {}),
          };
          if (baseUrlChanged && typedBaseUrl !== null) setConfirming(patch);
          else saveSettings(patch);
        }}
      >
        <div className="field">
          <label htmlFor="llm-model">Model</label>
          <input id="llm-model" value={model} onChange={(event) => setModel(event.target.value)} spellCheck={false} />
        </div>
        <div className="field">
          <label htmlFor="llm-base-url">
            Base URL{' '}
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
          <label htmlFor="llm-cap">Spending cap per job (US$)</label>
          <input id="llm-cap" type="number" min={0.01} step={0.01} value={cap} onChange={(event) => setCap(event.target.value)} />
        </div>
        <div className="dialog-buttons">
          <button type="submit" disabled={readOnly || busy || !(capValue > 0) || model.trim() === ''}>
            Save settings
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => {
              setTest(null);
              setBusy(true);
              void api.testLlmConnection({}).then((result) => {
                setBusy(false);
                if (result.ok) setTest(result.value);
                else setMessage({ text: result.error.message, error: true });
              });
            }}
          >
            Test connection
          </button>
        </div>
      </form>
      {confirming?.baseUrl ? (
        <BaseUrlConfirm url={confirming.baseUrl} onConfirm={() => saveSettings(confirming)} onCancel={() => setConfirming(null)} />
      ) : null}
      {message ? (
        <p className={message.error ? 'error' : 'muted'} role="status">
          {message.text}
        </p>
      ) : null}
      {test ? (
        <p className={test.ok ? 'muted' : 'error'} aria-label="Connection test">
          {test.ok ? `Connected: ${test.model} answered in ${test.latencyMs} ms.` : `Failed: ${test.message}`}
        </p>
      ) : null}
    </section>
  );
}
