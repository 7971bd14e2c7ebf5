/**
 * What the scanner looks for, as Latin-1 strings of UTF-8 bytes: a worker decodes each chunk as Latin-1
 * (one char per byte, so positions are byte offsets) and searches it.
 */
export interface SearchPatterns {
  /** The query as it appears inside a JSON string in a transcript line (quotes, backslashes, newlines escaped). */
  readonly transcript: string;
  /** The query as it appears in a Markdown memory file. */
  readonly memory: string;
  /** Whether the query has ASCII letters, i.e. whether chunks must be lower-cased before searching. */
  readonly foldCase: boolean;
}

function toLatin1Bytes(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/**
 * Patterns for a query. Matching ignores the case of ASCII letters; other characters match exactly
 * (the scanner works on bytes, and Unicode case folding changes byte lengths).
 */
export function searchPatternsFor(query: string): SearchPatterns {
  return {
    transcript: toLatin1Bytes(JSON.stringify(query).slice(1, -1)),
    memory: toLatin1Bytes(query),
    foldCase: /[A-Za-z]/.test(query),
  };
}
