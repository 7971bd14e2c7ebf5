/** Versions larger than this are not shown as text or diffed; they are still stored and restorable. */
export const MAX_TEXT_BYTES = 2 * 1024 * 1024;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A stored version as text, or null when it is not UTF-8 or too large to show. */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.length > MAX_TEXT_BYTES || bytes.includes(0)) return null;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}
