import { promises as fs } from 'node:fs';
import { join } from 'node:path';

const CHUNK_BYTES = 1024 * 1024;
/** Longer lines (inline images, huge tool outputs) are skipped by searches rather than held in memory. */
const MAX_LINE_BYTES = 8 * 1024 * 1024;
/** How much of a transcript one read_file call returns. */
export const TRANSCRIPT_WINDOW_BYTES = 32 * 1024;
const MAX_SHOWN_LINE_CHARS = 2000;
const EXCERPT_RADIUS = 150;

export interface FolderEntry {
  readonly name: string;
  readonly type: 'file' | 'folder' | 'symlink';
  readonly bytes: number | null;
}

/** Lists a real folder without following symlinks. */
export async function listRealFolder(dir: string, limit: number): Promise<FolderEntry[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const listed: FolderEntry[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name)).slice(0, limit)) {
    if (entry.isSymbolicLink()) listed.push({ name: entry.name, type: 'symlink', bytes: null });
    else if (entry.isDirectory()) listed.push({ name: entry.name, type: 'folder', bytes: null });
    else if (entry.isFile()) listed.push({ name: entry.name, type: 'file', bytes: (await fs.lstat(join(dir, entry.name))).size });
  }
  return listed;
}

function shortenLine(line: string): string {
  return line.length > MAX_SHOWN_LINE_CHARS
    ? `${line.slice(0, MAX_SHOWN_LINE_CHARS)}… [${line.length - MAX_SHOWN_LINE_CHARS} more characters]`
    : line;
}

export interface TranscriptWindow {
  readonly text: string;
  readonly size: number;
  /** Where the next read starts, or null at the end of the file. */
  readonly nextOffset: number | null;
}

/**
 * Line numbers of byte offsets in transcripts, so windows can show them (the model cites transcript lines by
 * number). Counting starts from the nearest offset already known: a model reading on window by window counts
 * each byte once.
 */
export class TranscriptLineIndex {
  private readonly known = new Map<string, Map<number, number>>();

  /** The 1-based number of the line holding `offset`. */
  async lineAt(file: string, offset: number): Promise<number> {
    let marks = this.known.get(file);
    if (!marks) {
      marks = new Map([[0, 1]]);
      this.known.set(file, marks);
    }
    const cached = marks.get(offset);
    if (cached !== undefined) return cached;
    let from = 0;
    for (const mark of marks.keys()) if (mark <= offset && mark > from) from = mark;
    let line = marks.get(from) ?? 1;
    const handle = await fs.open(file, 'r');
    try {
      const chunk = Buffer.alloc(CHUNK_BYTES);
      for (let position = from; position < offset;) {
        const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK_BYTES, offset - position), position);
        if (bytesRead === 0) break;
        for (let at = chunk.indexOf(0x0a, 0); at >= 0 && at < bytesRead; at = chunk.indexOf(0x0a, at + 1)) line++;
        position += bytesRead;
      }
    } finally {
      await handle.close();
    }
    marks.set(offset, line);
    return line;
  }
}

/**
 * Reads about 32 KB of a transcript from a byte offset, cut at line ends (a line longer than the window is
 * shown in part), each line shortened for display and numbered from `firstLine` (see TranscriptLineIndex).
 * Never reads the whole file.
 */
export async function readTranscriptWindow(file: string, offset: number, firstLine: number): Promise<TranscriptWindow> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const start = Math.min(offset, size);
    const buffer = Buffer.alloc(Math.min(TRANSCRIPT_WINDOW_BYTES, size - start));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    let window = buffer.subarray(0, bytesRead);
    const endsFile = start + bytesRead >= size;
    if (!endsFile) {
      const lastNewline = window.lastIndexOf(0x0a);
      if (lastNewline >= 0) window = window.subarray(0, lastNewline + 1);
    }
    const next = start + window.length;
    const lines = window.toString('utf8').split('\n');
    const text = lines
      .map((line, index) => (line === '' && index === lines.length - 1 ? '' : `(line ${firstLine + index}) ${shortenLine(line)}`))
      .join('\n');
    return { text, size, nextOffset: next >= size ? null : next };
  } finally {
    await handle.close();
  }
}

/** Yields each line of a file with its 1-based number, streaming it in 1 MiB chunks; over-long lines are skipped. */
export async function* fileLines(
  file: string,
  signal: AbortSignal,
): AsyncGenerator<{ readonly bytes: Buffer; readonly lineNumber: number }> {
  const handle = await fs.open(file, 'r');
  try {
    const chunk = Buffer.alloc(CHUNK_BYTES);
    let carry: Buffer[] = [];
    let carryBytes = 0;
    let skipping = false;
    let lineNumber = 0;
    let position = 0;
    for (;;) {
      signal.throwIfAborted();
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      let start = 0;
      for (let end = chunk.indexOf(0x0a, 0); end >= 0 && end < bytesRead; end = chunk.indexOf(0x0a, start)) {
        lineNumber++;
        if (!skipping && carryBytes + (end - start) <= MAX_LINE_BYTES) {
          yield {
            bytes: carryBytes > 0 ? Buffer.concat([...carry, chunk.subarray(start, end)]) : Buffer.from(chunk.subarray(start, end)),
            lineNumber,
          };
        }
        carry = [];
        carryBytes = 0;
        skipping = false;
        start = end + 1;
      }
      if (start < bytesRead && !skipping) {
        carryBytes += bytesRead - start;
        if (carryBytes > MAX_LINE_BYTES) {
          skipping = true;
          carry = [];
          carryBytes = 0;
        } else carry.push(Buffer.from(chunk.subarray(start, bytesRead)));
      }
    }
    if (carryBytes > 0 && !skipping) yield { bytes: Buffer.concat(carry), lineNumber: lineNumber + 1 };
  } finally {
    await handle.close();
  }
}

export interface GrepMatch {
  readonly file: string;
  readonly line: number;
  readonly excerpt: string;
}

/** Splits a grep pattern into lower-cased literal alternatives. */
export function grepAlternatives(pattern: string): string[] {
  return pattern
    .split('|')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '');
}

/** The part of a line around the first match, on one line. */
export function matchExcerpt(line: string, lowerLine: string, alternatives: readonly string[]): string | null {
  let at = -1;
  for (const alternative of alternatives) {
    const index = lowerLine.indexOf(alternative);
    if (index >= 0 && (at < 0 || index < at)) at = index;
  }
  if (at < 0) return null;
  const from = Math.max(0, at - EXCERPT_RADIUS);
  const to = Math.min(line.length, at + EXCERPT_RADIUS);
  return `${from > 0 ? '…' : ''}${line.slice(from, to).replace(/\s+/g, ' ')}${to < line.length ? '…' : ''}`;
}

/** Searches real files line by line, keeping the last `perFile` matches of each (the most recent in a transcript). */
export async function grepRealFiles(
  files: readonly { readonly path: string; readonly shownAs: string }[],
  alternatives: readonly string[],
  perFile: number,
  signal: AbortSignal,
): Promise<GrepMatch[]> {
  const matches: GrepMatch[] = [];
  for (const file of files) {
    const kept: GrepMatch[] = [];
    for await (const { bytes, lineNumber } of fileLines(file.path, signal)) {
      const line = bytes.toString('utf8');
      const excerpt = matchExcerpt(line, line.toLowerCase(), alternatives);
      if (excerpt === null) continue;
      kept.push({ file: file.shownAs, line: lineNumber, excerpt });
      if (kept.length > perFile) kept.shift();
    }
    matches.push(...kept);
  }
  return matches;
}
