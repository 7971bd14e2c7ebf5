import type { KeyboardEvent } from 'react';

/**
 * Arrow keys, Home and End move the focus between the rows of a list or table (`rowSelector` inside the element
 * the handler is on); Enter and Space stay with the row, which opens itself. Keys typed into a field are left alone.
 */
export function moveFocusByArrows(event: KeyboardEvent<HTMLElement>, rowSelector: string): void {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return;
  const target = event.target as HTMLElement;
  if (target.closest('input, textarea, select, [contenteditable="true"]')) return;
  const rows = [...event.currentTarget.querySelectorAll<HTMLElement>(rowSelector)];
  if (rows.length === 0) return;
  const current = rows.findIndex((row) => row === target || row.contains(target));
  const last = rows.length - 1;
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? last
        : current < 0
          ? 0
          : Math.max(0, Math.min(last, current + (event.key === 'ArrowDown' ? 1 : -1)));
  event.preventDefault();
  rows[next].focus();
}
