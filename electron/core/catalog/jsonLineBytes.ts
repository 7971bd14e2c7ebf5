/** The JSON bytes the catalog's line readers look for, and the one scan they share. */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COLON = 0x3a;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;

export function isJsonSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * The index of the quote that closes the string opening at `open`, or -1 when it never closes. Quotes are found
 * with native `indexOf`, so a string of megabytes costs a few calls; a quote after an odd run of backslashes is
 * escaped and skipped.
 */
export function closingQuote(line: Buffer, open: number): number {
  let close = open + 1;
  for (;;) {
    close = line.indexOf(QUOTE, close);
    if (close < 0) return -1;
    let backslashes = 0;
    while (line[close - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return close;
    close++;
  }
}
