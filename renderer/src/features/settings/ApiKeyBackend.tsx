import { useState } from 'react';
import type { BaseUrlSource, LlmSettingsView } from '../../../../shared/jobs/llmSettings';

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

export interface ApiKeyBackendProps {
  readonly view: LlmSettingsView;
  readonly readOnly: boolean;
  readonly busy: boolean;
  readonly onSaveKey: (key: string) => void;
  readonly onRemoveKey: () => void;
  readonly onTest: () => void;
}

/** The API key backend: whether there is a key and where it lives, where requests go, and a field for a new key. */
export function ApiKeyBackend({ view, readOnly, busy, onSaveKey, onRemoveKey, onTest }: ApiKeyBackendProps) {
  const [key, setKey] = useState('');
  return (
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
          onSaveKey(typed);
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
            onClick={onRemoveKey}
          >
            Remove saved key
          </button>
          <button type="button" disabled={busy || view.keySource === 'none'} onClick={onTest}>
            Test the API key
          </button>
        </div>
      </form>
    </section>
  );
}
