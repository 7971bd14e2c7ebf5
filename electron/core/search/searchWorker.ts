import type { ListedFile, ListingJob } from './searchListing';
import type { ByteMatcher } from '../jsonl/byteMatcher';

/**
 * The search scanner, run inside `worker_threads`. It is started from its own source text (`eval`), so it
 * works the same from TypeScript sources (tests), the CLI bundle and the Electron main bundle without a
 * separate worker file to ship: the function below must therefore be self-contained — it may use only
 * its own locals, its arguments and Node built-ins fetched with `process.getBuiltinModule`. What it shares with
 * the rest of the engine comes in as arguments, written into the source text from the same functions and lists
 * (SearchWorkerPool), never copied by hand.
 *
 * Protocol: the parent posts one request at a time — a `SearchUnit` to scan (byte ranges of files), answered
 * with a `UnitResult`, or folders to list, answered with their files. Cancellation is a shared Int32 holding
 * the newest cancelled generation.
 */

/**
 * Where an archived transcript's bytes are (Claude Code deleted the file): a data file of independent brotli frames,
 * each `[offset in the transcript, offset in the data file, length, stored length, CRC-32]` (history/archive).
 */
export interface ArchivedBytes {
  readonly dataPath: string;
  readonly size: number;
  readonly frames: readonly (readonly [number, number, number, number, number])[];
}

/** One byte range of one file. */
export interface SearchPart {
  readonly path: string;
  /** A JSONL transcript (matched inside its JSON strings), or a plain text file (memory, session memory, tool output). */
  readonly kind: 'transcript' | 'memory';
  /** Matches must start in [start, end); lines are counted from `start`. */
  readonly start: number;
  readonly end: number;
  /** Read from the archived copy instead of `path`; null for a file on disk. */
  readonly archive: ArchivedBytes | null;
}

/** What one message to a worker asks for: a few parts (many small files, or one range of a big one). */
export interface SearchUnit {
  readonly id: number;
  readonly generation: number;
  readonly parts: readonly SearchPart[];
  /** The pattern for each kind as a Latin-1 string of UTF-8 bytes (see searchPattern.ts). */
  readonly patterns: { readonly transcript: string; readonly memory: string };
  readonly foldCase: boolean;
  /** The query as typed, to place the match in the cleaned-up preview. */
  readonly query: string;
  readonly maxHits: number;
  /** Also report hits on the lines that record what Claude Code sent to the API (left out by default). */
  readonly includeRequestRecords: boolean;
}

export interface UnitHit {
  /** Newlines between the part's start and the match: the line is this plus the lines before the part, plus one. */
  readonly newlinesBefore: number;
  readonly preview: string;
  readonly matchStart: number;
  readonly matchLength: number;
  /** The hit's line is a request record (see `includeRequestRecords`). */
  readonly requestRecord: boolean;
}

export interface PartResult {
  /** Newlines in [start, end) (all of them, unless the search was cancelled). */
  readonly newlines: number;
  readonly bytes: number;
  readonly hits: readonly UnitHit[];
  /** Why the file could not be read (it vanished, permissions); its part then counts nothing. */
  readonly error: string | null;
}

export interface UnitResult {
  readonly id: number;
  readonly parts: readonly PartResult[];
  readonly cancelled: boolean;
}

export type SearchWorkerRequest =
  { readonly type: 'scan'; readonly unit: SearchUnit } | { readonly type: 'list'; readonly jobs: readonly ListingJob[] };

/** The files of each listed folder, in the order of the request's jobs. */
export type ListingResult = ListedFile[][];

export interface SearchWorkerData {
  /** Int32Array view over a SharedArrayBuffer: [0] = the newest cancelled generation. */
  readonly cancel: SharedArrayBuffer;
}

/** The line types and attachment types of request records (transcriptEntry.ts `REQUEST_RECORD_TYPES`, `REQUEST_RECORD_ATTACHMENTS`). */
export interface RequestRecordKinds {
  readonly types: readonly string[];
  readonly attachments: readonly string[];
}

/**
 * The worker's whole program. Self-contained: see the file comment; `listFolder` is searchListing's `listFolderSync`,
 * `quoteIsEscaped` the JSON byte scanner's, `createByteMatcher` the byte matcher's (jsonl/byteMatcher.ts).
 */
export function searchWorkerMain(
  listFolder: (job: ListingJob) => ListedFile[],
  quoteIsEscaped: (bytes: Uint8Array, index: number) => boolean,
  createByteMatcher: (needle: Uint8Array, foldCase: boolean) => ByteMatcher,
  requestRecords: RequestRecordKinds,
): void {
  const threads = process.getBuiltinModule('node:worker_threads');
  const fs = process.getBuiltinModule('node:fs');
  const zlib = process.getBuiltinModule('node:zlib');
  const port = threads.parentPort;
  if (!port) return;
  const cancelled = new Int32Array((threads.workerData as SearchWorkerData).cancel);
  const CHUNK = 1024 * 1024;
  const NEWLINE = 10;
  const QUOTE = 0x22;
  const PREVIEW_BEFORE = 120;
  const PREVIEW_AFTER = 200;
  const BASE64_RUN = 100;
  /** How much of a line's start tells whether it is a request record. */
  const LINE_HEAD_BYTES = 512;
  const BACKWARD_STEP = 64 * 1024;
  const anyOf = (names: readonly string[]): string => names.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
  /**
   * Claude Code 2.1.3xx's records of what it sent to the API: their type leads the line, and a prompt snapshot's
   * attachment type comes within its first hundred bytes.
   */
  const REQUEST_RECORD_START = new RegExp(`^\\{"type":"(?:${anyOf(requestRecords.types)})"`);
  const REQUEST_RECORD_ATTACHMENT = new RegExp(`"attachment":\\{"type":"(?:${anyOf(requestRecords.attachments)})"`);
  let buffer = Buffer.allocUnsafe(CHUNK + 4096);

  /** Positional reads of a part's bytes: the file itself, or its archived copy decoded frame by frame. */
  interface Reader {
    readonly size: number;
    read(target: Buffer, offset: number, length: number, position: number): number;
    close(): void;
  }

  const FRAME_HEADER = 20;

  function diskReader(path: string): Reader {
    const fd = fs.openSync(path, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      return {
        size,
        read: (target, offset, length, position) => fs.readSync(fd, target, offset, length, position),
        close: () => fs.closeSync(fd),
      };
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
  }

  /** The archived copy: decodes only the frames a read touches (two kept), each checked against its length and CRC-32. */
  function archiveReader(archive: ArchivedBytes): Reader {
    const fd = fs.openSync(archive.dataPath, 'r');
    const decoded: { index: number; bytes: Buffer }[] = [];
    const frameBytes = (index: number): Buffer => {
      const known = decoded.find((entry) => entry.index === index);
      if (known) return known.bytes;
      const [, position, length, stored, crc] = archive.frames[index];
      const raw = Buffer.allocUnsafe(FRAME_HEADER + stored);
      const read = fs.readSync(fd, raw, 0, raw.length, position);
      if (read !== raw.length || raw.toString('latin1', 0, 4) !== 'CCAR') throw new Error('archive frame is cut short');
      const bytes = zlib.brotliDecompressSync(raw.subarray(FRAME_HEADER));
      if (bytes.length !== length || zlib.crc32(bytes) !== crc) throw new Error('archive frame fails its checksum');
      decoded.push({ index, bytes });
      if (decoded.length > 2) decoded.shift();
      return bytes;
    };
    const frameAt = (at: number): number => {
      let low = 0;
      let high = archive.frames.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (archive.frames[mid][0] <= at) low = mid;
        else high = mid - 1;
      }
      return low;
    };
    return {
      size: archive.size,
      read: (target, offset, length, position) => {
        const end = Math.min(position + length, archive.size);
        let at = position;
        while (at < end) {
          const index = frameAt(at);
          const bytes = frameBytes(index);
          const from = at - archive.frames[index][0];
          const take = Math.min(end - at, bytes.length - from);
          if (take <= 0) break;
          bytes.copy(target, offset + (at - position), from, from + take);
          at += take;
        }
        return Math.max(0, at - position);
      },
      close: () => fs.closeSync(fd),
    };
  }

  function countNewlines(bytes: Buffer, from: number, to: number): number {
    let count = 0;
    let at = bytes.indexOf(NEWLINE, from);
    while (at >= 0 && at < to) {
      count++;
      at = bytes.indexOf(NEWLINE, at + 1);
    }
    return count;
  }

  function isBase64Byte(byte: number): boolean {
    return (
      (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte === 43 || byte === 47 || byte === 61
    );
  }

  function unescapeJsonText(text: string): string {
    return text.replace(/\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g, (_, escape: string) => {
      if (escape.length === 5) return String.fromCharCode(parseInt(escape.slice(1), 16));
      if (escape === 'n' || escape === 't' || escape === 'r' || escape === 'b' || escape === 'f') return ' ';
      return escape;
    });
  }

  /** The readable text around a match, or null when the match sits inside base64 data (an image, a signature). */
  function previewAt(
    reader: Reader,
    size: number,
    matchAt: number,
    matchBytes: number,
    kind: SearchPart['kind'],
    query: string,
  ): UnitHit | null {
    const windowStart = Math.max(0, matchAt - PREVIEW_BEFORE - 8);
    const windowEnd = Math.min(size, matchAt + matchBytes + PREVIEW_AFTER + 8);
    const window = Buffer.alloc(windowEnd - windowStart);
    const read = reader.read(window, 0, window.length, windowStart);
    const bytes = window.subarray(0, read);
    const at = matchAt - windowStart;
    let runStart = at;
    while (runStart > 0 && isBase64Byte(bytes[runStart - 1])) runStart--;
    let runEnd = at + matchBytes;
    while (runEnd < bytes.length && isBase64Byte(bytes[runEnd])) runEnd++;
    let allBase64 = true;
    for (let i = at; i < at + matchBytes && allBase64; i++) allBase64 = isBase64Byte(bytes[i]);
    if (allBase64 && runEnd - runStart >= BASE64_RUN) return null;
    let lineStart = at === 0 ? 0 : bytes.lastIndexOf(NEWLINE, at - 1) + 1;
    let lineEnd = bytes.indexOf(NEWLINE, at + matchBytes);
    if (lineEnd < 0) lineEnd = bytes.length;
    if (kind === 'transcript') {
      // Show the JSON string that holds the match (a prompt, an answer, a tool's output), not the line's keys.
      let open = at - 1;
      while (open >= lineStart && !(bytes[open] === QUOTE && !quoteIsEscaped(bytes, open))) open--;
      let close = at + matchBytes;
      while (close < lineEnd && !(bytes[close] === QUOTE && !quoteIsEscaped(bytes, close))) close++;
      if (open >= lineStart) lineStart = open + 1;
      lineEnd = close;
    }
    let start = Math.max(lineStart, at - PREVIEW_BEFORE);
    let end = Math.min(lineEnd, at + matchBytes + PREVIEW_AFTER);
    // Never start or end inside a UTF-8 character.
    while (start < at && (bytes[start] & 0xc0) === 0x80) start++;
    while (end > at + matchBytes && end < bytes.length && (bytes[end] & 0xc0) === 0x80) end--;
    let text = bytes.toString('utf8', start, end);
    if (kind === 'transcript') text = unescapeJsonText(text);
    text = text.replace(/\s+/g, ' ').trim();
    const prefix = start > lineStart ? '…' : '';
    const suffix = end < lineEnd ? '…' : '';
    const preview = `${prefix}${text}${suffix}`;
    const matchStart = preview.toLowerCase().indexOf(query.toLowerCase());
    return {
      newlinesBefore: 0,
      preview,
      matchStart: matchStart < 0 ? 0 : matchStart,
      matchLength: matchStart < 0 ? 0 : query.length,
      requestRecord: false,
    };
  }

  /** Where the line holding `offset` starts: the byte after the newline before it (read backwards), or 0. */
  function lineStartBefore(reader: Reader, offset: number): number {
    const step = Buffer.alloc(BACKWARD_STEP);
    let end = offset;
    while (end > 0) {
      const start = Math.max(0, end - BACKWARD_STEP);
      const read = reader.read(step, 0, end - start, start);
      const newline = step.subarray(0, read).lastIndexOf(NEWLINE);
      if (newline >= 0) return start + newline + 1;
      end = start;
    }
    return 0;
  }

  function isRequestRecord(reader: Reader, lineStart: number): boolean {
    const head = Buffer.alloc(LINE_HEAD_BYTES);
    const read = reader.read(head, 0, LINE_HEAD_BYTES, lineStart);
    const text = head.toString('latin1', 0, read);
    return REQUEST_RECORD_START.test(text) || REQUEST_RECORD_ATTACHMENT.test(text);
  }

  /** A unit's needle for each kind of part, as bytes, with its matcher. */
  interface Needle {
    readonly bytes: Buffer;
    readonly find: ByteMatcher;
  }

  function needleFor(pattern: string, foldCase: boolean): Needle {
    const bytes = Buffer.from(pattern, 'latin1');
    return { bytes, find: createByteMatcher(bytes, foldCase) };
  }

  /** Scans one part; returns null when the search was cancelled meanwhile. */
  function scanPart(part: SearchPart, unit: SearchUnit, needle: Needle, maxHits: number): PartResult | null {
    const raw = needle.bytes;
    const overlap = raw.length - 1;
    if (buffer.length < CHUNK + overlap) buffer = Buffer.allocUnsafe(CHUNK + overlap);
    const hits: UnitHit[] = [];
    let newlines = 0;
    let bytes = 0;
    let lastHitLine = -1;
    let reader: Reader | null = null;
    try {
      reader = part.archive ? archiveReader(part.archive) : diskReader(part.path);
      const size = reader.size;
      const end = Math.min(part.end, size);
      let position = part.start;
      // Where the line at the start of the current chunk began (lines may start before this part's range).
      let carriedLineStart = part.kind === 'transcript' && part.start > 0 ? lineStartBefore(reader, part.start) : part.start;
      while (position < end) {
        if (Atomics.load(cancelled, 0) >= unit.generation) return null;
        const wanted = Math.min(CHUNK, end - position);
        const read = reader.read(buffer, 0, Math.min(wanted + overlap, size - position), position);
        if (read === 0) break;
        const chunkEnd = Math.min(wanted, read);
        let counted = 0;
        let from = 0;
        while (hits.length < maxHits) {
          const at = needle.find(buffer, from, read);
          if (at < 0 || at >= chunkEnd) break;
          newlines += countNewlines(buffer, counted, at);
          counted = at;
          if (newlines !== lastHitLine) {
            const before = at > 0 ? buffer.lastIndexOf(NEWLINE, at - 1) : -1;
            const lineStart = before >= 0 ? position + before + 1 : carriedLineStart;
            const requestRecord = part.kind === 'transcript' && isRequestRecord(reader, lineStart);
            const hit =
              requestRecord && !unit.includeRequestRecords
                ? null
                : previewAt(reader, size, position + at, raw.length, part.kind, unit.query);
            if (hit) {
              hits.push({ ...hit, newlinesBefore: newlines, requestRecord });
              lastHitLine = newlines;
            }
          }
          // One hit per line: go on from the next line.
          const lineEnd = buffer.indexOf(NEWLINE, at + raw.length);
          if (lineEnd < 0 || lineEnd >= chunkEnd) break;
          newlines += countNewlines(buffer, counted, lineEnd + 1);
          counted = lineEnd + 1;
          from = lineEnd + 1;
        }
        newlines += countNewlines(buffer, counted, chunkEnd);
        const lastNewline = chunkEnd > 0 ? buffer.lastIndexOf(NEWLINE, chunkEnd - 1) : -1;
        if (lastNewline >= 0) carriedLineStart = position + lastNewline + 1;
        bytes += chunkEnd;
        position += chunkEnd;
      }
      return { newlines, bytes, hits, error: null };
    } catch (error) {
      return { newlines: 0, bytes, hits: [], error: error instanceof Error ? error.message : String(error) };
    } finally {
      reader?.close();
    }
  }

  function scan(unit: SearchUnit): UnitResult {
    const parts: PartResult[] = [];
    const transcriptNeedle = needleFor(unit.patterns.transcript, unit.foldCase);
    const memoryNeedle = needleFor(unit.patterns.memory, unit.foldCase);
    let hitCount = 0;
    for (const part of unit.parts) {
      const needle = part.kind === 'transcript' ? transcriptNeedle : memoryNeedle;
      const result = scanPart(part, unit, needle, Math.max(1, unit.maxHits - hitCount));
      if (!result) return { id: unit.id, parts, cancelled: true };
      parts.push(result);
      hitCount += result.hits.length;
    }
    return { id: unit.id, parts, cancelled: false };
  }

  port.on('message', (request: SearchWorkerRequest) => {
    if (request.type === 'scan') port.postMessage(scan(request.unit));
    else port.postMessage(request.jobs.map(listFolder) satisfies ListingResult);
  });
}
