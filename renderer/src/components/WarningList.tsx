import type { ItemWarning } from '../../../shared/model/warnings';

export interface WarningListProps {
  readonly warnings: readonly ItemWarning[];
}

/** Problems found on items; each names the item it is about so the user can find it. */
export function WarningList({ warnings }: WarningListProps) {
  if (warnings.length === 0) return null;
  return (
    <ul className="warnings" aria-label="Warnings">
      {warnings.map((w, index) => (
        <li key={`${w.code}:${w.path ?? ''}:${index}`} className="warning">
          <span className="badge warn">{w.code}</span> {w.message}
          {w.path ? <code className="path"> {w.path}</code> : null}
        </li>
      ))}
    </ul>
  );
}
