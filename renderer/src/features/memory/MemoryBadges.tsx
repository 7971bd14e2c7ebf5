import { FINDING_INFO, type FindingCode, type FindingSeverity } from '../../../../shared/memory/findingCodes';
import type { ReviewedMemoryFile } from '../../../../shared/memory/memoryReview';

export function TypeBadge({ file }: { readonly file: Pick<ReviewedMemoryFile, 'type' | 'rawType'> }) {
  const label = file.type ?? 'unknown';
  return (
    <span className={`badge type-${file.type ?? 'unknown'}`} title={file.rawType ? `type: ${file.rawType}` : undefined}>
      {label}
    </span>
  );
}

export function FindingBadge({ code, severity }: { readonly code: FindingCode; readonly severity?: FindingSeverity }) {
  const info = FINDING_INFO[code];
  return (
    <span className={`badge finding finding-${severity ?? info.severity}`} title={`${code}: ${info.help}`}>
      {info.label}
    </span>
  );
}
