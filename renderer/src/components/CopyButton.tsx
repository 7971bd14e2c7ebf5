import { useEffect, useState } from 'react';
import { copyText } from './copyText';

export interface CopyButtonProps {
  /** The text to copy, or a function that makes it when clicked. */
  readonly text: string | (() => string);
  /** What is copied, for screen readers and the tooltip: "Copy message", "Copy output". */
  readonly label: string;
  /** The button's own text; default "Copy". */
  readonly children?: string;
}

const CONFIRM_MS = 1500;

/** A small button that copies text to the clipboard and says so for a moment. */
export function CopyButton({ text, label, children = 'Copy' }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className="copy-button"
      aria-label={label}
      title={label}
      onClick={(event) => {
        event.stopPropagation();
        void copyText(typeof text === 'function' ? text() : text).then((ok) => setState(ok ? 'copied' : 'failed'));
      }}
    >
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Cannot copy' : children}</span>
    </button>
  );
}
