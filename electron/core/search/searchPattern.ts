/**
 * What the scanner looks for, as Latin-1 strings of UTF-8 bytes (one char per byte, so they pass to the threads as
 * strings and turn back into the exact bytes there, where jsonl/byteMatcher.ts matches them against the files' bytes).
 */
export interface SearchPatterns {
  /** The query as it appears inside a JSON string in a transcript line (quotes, backslashes, newlines escaped). */
  readonly transcript: string;
  /** The query as it appears in a Markdown memory file. */
  readonly memory: string;
  /** Whether the query has ASCII letters, i.e. whether matching must ignore their case. */
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
