/**
 * Cures for a secret in a memory: the secret replaced by a mark, or its line removed. The engine finds where each
 * secret is (secretScan.ts); the spans here refer to the file's text as it was found.
 */
import type { SecretSpan } from '../secretMask';
import { lineAt, lineRange, type TextEdit } from './textEdits';

/** What a masked secret leaves in the memory: says something was there without saying what. */
export const SECRET_MARK = '[REDACTED]';

function spansOnLine(text: string, spans: readonly SecretSpan[], line: number): SecretSpan[] {
  return spans.filter((span) => lineAt(text, span.start) === line);
}

/** The edits that replace every secret starting on `line` by the mark; empty when none starts there. */
export function maskSecretEdits(text: string, spans: readonly SecretSpan[], line: number): TextEdit[] {
  return spansOnLine(text, spans, line).map((span) => ({ start: span.start, end: span.end, text: SECRET_MARK }));
}

/** The edit that removes the line of a secret, and every further line a secret starting there runs onto (a key block). */
export function removeSecretLineEdit(text: string, spans: readonly SecretSpan[], line: number): TextEdit | null {
  const on = spansOnLine(text, spans, line);
  const first = lineRange(text, line);
  if (on.length === 0 || !first) return null;
  const lastLine = Math.max(...on.map((span) => lineAt(text, Math.max(span.start, span.end - 1))));
  const last = lineRange(text, lastLine) ?? first;
  return { start: first.start, end: last.end, text: '' };
}
