/** The host a base URL names, or null when it is not a URL (the engine then says what is wrong). */
function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

export interface BaseUrlConfirmProps {
  readonly url: string;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

/** Asks before a new base URL is saved: the API key goes to that host with every request. */
export function BaseUrlConfirm({ url, onConfirm, onCancel }: BaseUrlConfirmProps) {
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
