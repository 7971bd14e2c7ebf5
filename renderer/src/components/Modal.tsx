import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface ModalProps {
  readonly label: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly className?: string;
}

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex="0"]';

/**
 * A modal layer: Esc or a click outside closes it, Tab stays inside, and focus goes back where it was when it closes.
 * The first focusable element inside gets the focus (give the one that should have it `autoFocus`, or put it first).
 */
export function Modal({ label, onClose, children, className }: ModalProps) {
  const box = useRef<HTMLDivElement>(null);
  // Noted at the first render, before an `autoFocus` inside takes the focus.
  const [before] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    if (!box.current?.contains(document.activeElement)) box.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    return () => before?.focus();
  }, [before]);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    } else if (event.key === 'Tab' && box.current) {
      const focusable = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (focusable.length === 0) return;
      const index = focusable.indexOf(document.activeElement as HTMLElement);
      const next = event.shiftKey ? (index <= 0 ? focusable.length - 1 : index - 1) : (index + 1) % focusable.length;
      event.preventDefault();
      focusable[next].focus();
    }
  };
  return (
    <div className="overlay" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={box}
        className={className ? `modal ${className}` : 'modal'}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        onKeyDown={onKeyDown}
      >
        {children}
      </div>
    </div>
  );
}
