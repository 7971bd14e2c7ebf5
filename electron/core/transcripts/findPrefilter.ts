import { createByteMatcher } from '../jsonl/byteMatcher';

/** Tests a line's bytes `[from, end)`: false only for lines the text test would turn down too. */
export type LineBytesTest = (bytes: Buffer, from: number, end: number) => boolean;

/**
 * The only characters whose `toLowerCase()` holds an ASCII character (İ → "i̇", the Kelvin sign → "k"; checked over every
 * code point): a line holding one may match an ASCII query only once lowered as text.
 */
const LOWERING_TO_ASCII = ['\u0130', '\u212a'].map((character) => Buffer.from(character));

/**
 * For an ASCII query, a byte test that passes every line whose text, lowered, contains the lowered query or its
 * JSON-escaped form (`find`'s test), without decoding the line: ASCII letters match in either case, other bytes exactly,
 * and a line with a character that lowers to ASCII always passes. Null for any other query, whose lowering the bytes
 * cannot follow (`find` then decodes every line, as before).
 */
export function asciiQueryPrefilter(query: string): LineBytesTest | null {
  if (!/^[\x00-\x7f]*$/.test(query)) return null;
  const lowered = query.toLowerCase();
  const escapedText = JSON.stringify(query).slice(1, -1).toLowerCase();
  const plain = createByteMatcher(Buffer.from(lowered, 'latin1'), true);
  // Most queries have nothing to escape: one pass over the line then.
  const escaped = escapedText === lowered ? null : createByteMatcher(Buffer.from(escapedText, 'latin1'), true);
  return (bytes, from, end) => {
    // A view of the line alone: native `indexOf` (exact needles, the sequences) would search on to the end of `bytes`.
    const line = bytes.subarray(from, end);
    return (
      plain(line, 0, line.length) >= 0 ||
      (escaped !== null && escaped(line, 0, line.length) >= 0) ||
      LOWERING_TO_ASCII.some((sequence) => line.includes(sequence))
    );
  };
}
