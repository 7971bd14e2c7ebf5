import { useHomeStore } from '../stores/homeStore';

/** Only the desktop app reveals a masked secret; the web shell (anyone with its token) never does. */
export function useCanRevealSecrets(): boolean {
  return useHomeStore((s) => s.home?.shell === 'electron');
}

export interface SecretsNoticeProps {
  /** How many secrets are masked in what is shown (0 when revealed). */
  readonly masked: number;
  readonly revealed: boolean;
  /** Shows the real text (the desktop app only); null where it cannot be revealed. */
  readonly onReveal: (() => void) | null;
  readonly onHide: () => void;
}

/** Says that secrets are masked (•) in what is shown, with the explicit click that reveals them where allowed. */
export function SecretsNotice({ masked, revealed, onReveal, onHide }: SecretsNoticeProps) {
  if (revealed) {
    return (
      <p className="warning" role="note" aria-label="Secrets">
        Secrets are shown.{' '}
        <button type="button" className="link" onClick={onHide}>
          Hide secrets
        </button>
      </p>
    );
  }
  if (masked === 0) return null;
  return (
    <p className="muted" role="note" aria-label="Secrets">
      {masked === 1 ? 'What looks like a secret is' : `${masked} things that look like secrets are`} masked (•).{' '}
      {onReveal ? (
        <button type="button" className="link" onClick={onReveal}>
          Show secrets
        </button>
      ) : (
        'The web shell never shows them; open this in the desktop app to see them.'
      )}
    </p>
  );
}
