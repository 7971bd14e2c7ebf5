import { useEffect, useState } from 'react';
import type {
  BaseUrlSource,
  ClaudeCodeStatus,
  ConnectionTestResult,
  LlmBackend,
  LlmBackendChoice,
  LlmSettingsPatch,
  LlmSettingsView,
} from '../../../../shared/jobs/llmSettings';
import type { Result } from '../../../../shared/result';
import { api } from '../../api/connectApi';

const KEY_SOURCE_TEXT = {
  environment: 'from ANTHROPIC_API_KEY',
  keychain: 'stored in the system keychain',
  session: 'entered here, kept in memory until the server stops',
  none: 'none',
} as const;

const BACKEND_TEXT: Readonly<Record<LlmBackend, string>> = { api: 'the API key', 'claude-code': 'Claude Code' };

const CHOICES: readonly { readonly value: LlmBackendChoice; readonly label: string }[] = [
  { value: 'auto', label: 'Automatic: the API key when one is set, else Claude Code' },
  { value: 'api', label: 'API key' },
  { value: 'claude-code', label: 'Claude Code (your own claude and its login)' },
];

const SOURCE_TEXT = { environment: 'from CCMEM_CLAUDE_PATH', settings: 'the path set here', path: 'found on the PATH' } as const;

function loginText(status: Extract<ClaudeCodeStatus, { found: true }>): string {
  if (!status.loggedIn) return 'not logged in: run claude and sign in with /login';
  if (status.billing === 'subscription') return 'logged in with a Claude subscription (jobs show tokens, not dollars)';
  return 'logged in with an API key (jobs show what they cost)';
}

function ClaudeCodeFacts({ status }: { readonly status: ClaudeCodeStatus }) {
  if (!status.found) {
    return (
      <p className="muted" aria-label="Claude Code status">
        Not found: {status.message}
      </p>
    );
  }
  return (
    <dl className="facts" aria-label="Claude Code status">
      <dt>Program</dt>
      <dd>
        <code>{status.path}</code> <span className="muted">({SOURCE_TEXT[status.source]})</span>
      </dd>
      <dt>Version</dt>
      <dd aria-label="Claude Code version">{status.version ?? 'unknown'}</dd>
      <dt>Login</dt>
      <dd aria-label="Claude Code login">{loginText(status)}</dd>
      {status.problem ? (
        <>
          <dt>Problem</dt>
          <dd className="error">{status.problem}</dd>
        </>
      ) : null}
    </dl>
  );
}

function TestResult({ test }: { readonly test: ConnectionTestResult }) {
  return (
    <p className={test.ok ? 'muted' : 'error'} aria-label="Connection test">
      {test.ok
        ? `Connected through ${BACKEND_TEXT[test.via]}: ${test.model} answered in ${test.latencyMs} ms. ${test.via === 'claude-code' ? test.message : ''}`
        : `Failed through ${BACKEND_TEXT[test.via]}: ${test.message}`}
    </p>
  );
}

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
 * The model settings for dreams and extraction replays, and which backend runs them: the Anthropic API with a key,
 * or the user's own Claude Code with its login. The key is sent once to the engine and never comes back: the page
 * only learns whether there is one and where it lives.
 */
export function LlmSettingsSection({ readOnly }: { readonly readOnly: boolean }) {
  const [view, setView] = useState<LlmSettingsView | null>(null);
  const [model, setModel] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [cap, setCap] = useState('');
  const [key, setKey] = useState('');
  const [claudePath, setClaudePath] = useState('');
  // Shown at once when picked; the saved choice comes back with the view.
  const [backend, setBackend] = useState<LlmBackendChoice>('auto');
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [test, setTest] = useState<ConnectionTestResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<LlmSettingsPatch | null>(null);

  function show(next: LlmSettingsView): void {
    setView(next);
    setModel(next.model);
    setBaseUrl(next.baseUrl ?? '');
    setCap(String(next.maxCostUsdPerJob));
    setClaudePath(next.claudePath ?? '');
    setBackend(next.backend);
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
    } else {
      if (view) setBackend(view.backend);
      setMessage({ text: result.error.message, error: true });
    }
  }

  function testConnection(via: LlmBackend): void {
    setTest(null);
    setMessage(null);
    setBusy(true);
    void api.testLlmConnection({ via }).then((result) => {
      setBusy(false);
      if (result.ok) setTest(result.value);
      else setMessage({ text: result.error.message, error: true });
    });
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
                void save(() => api.updateLlmSettings({ backend: choice.value }), 'Backend saved.');
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

      <section aria-label="API key backend">
        <h3>API key</h3>
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
              (
              {view.keyPersistence === 'keychain'
                ? 'kept encrypted in the system keychain'
                : 'kept in memory only, until this server stops'}
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
            <button type="button" disabled={busy || view.keySource === 'none'} onClick={() => testConnection('api')}>
              Test the API key
            </button>
          </div>
        </form>
      </section>

      <section aria-label="Claude Code backend">
        <h3>Claude Code</h3>
        <p className="muted">
          Runs the job with the claude you already use and its login (a Claude subscription works). Only the job&apos;s own tools are given
          to it; your hooks, MCP servers, CLAUDE.md files and Claude Code&apos;s own memory stay out of it, and it keeps no transcript.
        </p>
        <ClaudeCodeFacts status={view.claudeCode} />
        <form
          className="field"
          onSubmit={(event) => {
            event.preventDefault();
            void save(() => api.updateLlmSettings({ claudePath: claudePath.trim() === '' ? null : claudePath.trim() }), 'Path saved.');
          }}
        >
          <label htmlFor="llm-claude-path">
            Path to claude <span className="muted">(used unless CCMEM_CLAUDE_PATH is set; empty: the one on the PATH)</span>
          </label>
          <input
            id="llm-claude-path"
            value={claudePath}
            onChange={(event) => setClaudePath(event.target.value)}
            placeholder="/usr/local/bin/claude"
            spellCheck={false}
          />
          <div className="dialog-buttons">
            <button type="submit" disabled={readOnly || busy}>
              Save path
            </button>
            <button type="button" disabled={busy || !view.claudeCode.found} onClick={() => testConnection('claude-code')}>
              Test Claude Code
            </button>
          </div>
        </form>
      </section>

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
        <BaseUrlConfirm url={confirming.baseUrl} onConfirm={() => saveSettings(confirming)} onCancel={() => setConfirming(null)} />
      ) : null}
      {message ? (
        <p className={message.error ? 'error' : 'muted'} role="status">
          {message.text}
        </p>
      ) : null}
      {test ? <TestResult test={test} /> : null}
    </section>
  );
}
