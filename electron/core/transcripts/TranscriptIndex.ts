import { createHash } from 'node:crypto';
import { openFromDisk, type RandomAccessSource, type SourceOpener } from '../fs/randomAccessSource';
import { unreadableLine, type IndexedLine } from '../../../shared/transcript/indexedLine';
import { scanEnvelope } from './envelopeScanner';
import { MAX_LINE_BYTES, readLines } from '../jsonl/sourceLineReader';
import type { IndexedExtent } from './savedLineIndexes';

/** Bytes at the start of the file remembered to notice a file replaced by another of at least the same size. */
const HEAD_SIGNATURE_BYTES = 256;
/**
 * Bytes before the end of the indexed part remembered with a saved index: a file that still starts and ends (where
 * the index stopped) with the same bytes is the same file, grown or not, so the index is read on from there.
 */
const TAIL_SIGNATURE_BYTES = 4096;

function sha1(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}

/** A saved index to go on from, with where it stopped. */
export interface ResumePoint {
  readonly extent: IndexedExtent;
  readonly lines: readonly IndexedLine[];
}

export type IndexUpdate = 'unchanged' | 'appended' | 'rebuilt';

/** Where an index keeps the lines it reads: what it holds of each is what `keep` returns. */
export interface LineStore {
  keep(line: IndexedLine): IndexedLine;
  /** The lines of a saved index gone on from, kept the same way. */
  keepAll(lines: readonly IndexedLine[]): IndexedLine[];
}

/** The lines as they were scanned, one object each: what the viewer's documents hold. */
const LINES_AS_SCANNED: LineStore = { keep: (line) => line, keepAll: (lines) => lines.slice() };

interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

/**
 * The line index of one transcript: every line's offset, length and envelope, built by one streaming pass and
 * extended from the last complete line when the file grows. A file that shrank or was replaced is indexed again
 * from the start (`generation` counts those restarts). A last line without its newline is held back; if it already
 * parses as a whole record it is shown provisionally and read again once complete.
 */
export class TranscriptIndex {
  private committed: IndexedLine[] = [];
  private store: LineStore;
  private provisional: IndexedLine | null = null;
  private committedBytes = 0;
  private nextLineNumber = 1;
  private identity: FileIdentity | null = null;
  private head: Buffer = Buffer.alloc(0);
  /** The bytes before `committedBytes` (up to `TAIL_SIGNATURE_BYTES`), read with the lines they end. */
  private tail: Buffer = Buffer.alloc(0);
  private sizeBytes = 0;
  private mtime = 0;
  private reachedEnd = false;
  /** A saved index offered before the first update; taken if the file still holds the bytes it was made from. */
  private resumeCandidate: ResumePoint | null = null;
  /** The saved index the first update went on from, if it did. */
  resumedFrom: ResumePoint | null = null;
  generation = 0;

  /**
   * @param missingIsEmpty a session whose file is gone but whose sub-agents are left is opened as an empty file.
   */
  constructor(
    readonly path: string,
    private readonly maxLineBytes = MAX_LINE_BYTES,
    private readonly missingIsEmpty = false,
    /** Where the bytes come from: the disk, or the archived copy once Claude Code deleted the file. */
    readonly opener: SourceOpener = openFromDisk,
    /** A new store for the lines, made at the start and whenever the file is indexed again from its start. */
    private readonly newLineStore: () => LineStore = () => LINES_AS_SCANNED,
  ) {
    this.store = newLineStore();
  }

  /** Every indexed line in file order (the provisional last line included). */
  get lines(): readonly IndexedLine[] {
    return this.provisional ? [...this.committed, this.provisional] : this.committed;
  }

  get bytes(): number {
    return this.sizeBytes;
  }

  get mtimeMs(): number {
    return this.mtime;
  }

  /** Offset past the last complete line. */
  get indexedBytes(): number {
    return this.committedBytes;
  }

  /** Every complete line indexed, in file order (the provisional last line left out). */
  get committedLines(): readonly IndexedLine[] {
    return this.committed;
  }

  /** Offers a saved index for the first update to go on from (checked against the file then). */
  resumeFrom(point: ResumePoint): void {
    if (this.generation === 0) this.resumeCandidate = point;
  }

  /** Where the index stands, for saving: what a later `resumeFrom` needs to check the file and go on from here. */
  extent(): IndexedExtent {
    return {
      path: this.path,
      fileBytes: this.sizeBytes,
      mtimeMs: this.mtime,
      indexedBytes: this.committedBytes,
      nextLineNumber: this.nextLineNumber,
      headHash: sha1(this.head),
      tailHash: sha1(this.tail),
    };
  }

  /** Whether the last update read up to the end of the file (a budgeted update may stop early). */
  get complete(): boolean {
    return this.reachedEnd;
  }

  /**
   * Brings the index up to date with the file; reads only what was appended unless the file was replaced. With a
   * `deadline` (a `performance.now()` time) it stops early and the next update goes on from there.
   */
  async update(deadline?: number): Promise<IndexUpdate> {
    let handle: RandomAccessSource;
    try {
      handle = await this.opener(this.path);
    } catch (error) {
      if (!this.missingIsEmpty || (error as { code?: string }).code !== 'ENOENT' || this.committedBytes > 0) throw error;
      this.generation = Math.max(this.generation, 1);
      this.reachedEnd = true;
      return 'unchanged';
    }
    try {
      const stats = await handle.stat();
      let rebuilt = false;
      const replaced =
        this.identity !== null && (this.identity.dev !== stats.dev || this.identity.ino !== stats.ino || stats.size < this.committedBytes);
      if (replaced || (this.identity !== null && !(await this.headUnchanged(handle)))) {
        this.reset();
        rebuilt = true;
      }
      const resumed =
        this.identity === null && this.resumeCandidate !== null && (await this.resume(handle, stats.size, this.resumeCandidate));
      this.identity = { dev: stats.dev, ino: stats.ino };
      const changed = stats.size !== this.sizeBytes || stats.mtimeMs !== this.mtime;
      this.sizeBytes = stats.size;
      this.mtime = stats.mtimeMs;
      if (!rebuilt && !changed && this.generation > 0 && this.reachedEnd) return 'unchanged';
      if (this.generation === 0) this.generation = 1;
      const before = this.committed.length;
      const committedBefore = this.committedBytes;
      const hadProvisional = this.provisional !== null;
      const result = await readLines(
        handle,
        {
          start: this.committedBytes,
          end: stats.size,
          firstLineNumber: this.nextLineNumber,
          maxLineBytes: this.maxLineBytes,
          yieldEvery: 16,
          deadline,
        },
        (bytes, offset, length, number) => {
          if (bytes === null) this.committed.push(this.store.keep(unreadableLine(number, offset, length, 'too-long')));
          else if (bytes.length > 0) this.committed.push(this.store.keep(scanEnvelope(bytes, number, offset)));
        },
      );
      this.committedBytes = result.committedBytes;
      this.nextLineNumber = result.nextLineNumber;
      this.reachedEnd = result.reachedEnd;
      this.provisional = null;
      if (result.partialTail !== null) {
        const tail = scanEnvelope(result.partialTail, result.nextLineNumber, result.committedBytes);
        if (tail.unreadable === null) this.provisional = tail;
      }
      if (this.committedBytes !== committedBefore)
        this.tail = await readBytes(handle, this.committedBytes - Math.min(TAIL_SIGNATURE_BYTES, this.committedBytes), this.committedBytes);
      if (this.head.length < HEAD_SIGNATURE_BYTES && this.committedBytes > this.head.length) {
        const length = Math.min(HEAD_SIGNATURE_BYTES, this.committedBytes);
        const head = Buffer.alloc(length);
        await handle.read(head, 0, length, 0);
        this.head = head;
      }
      if (rebuilt) return 'rebuilt';
      return resumed || this.committed.length !== before || hadProvisional || this.provisional !== null ? 'appended' : 'unchanged';
    } finally {
      await handle.close();
    }
  }

  /** Takes a saved index when the file still starts, and reads up to where the index stopped, with the same bytes. */
  private async resume(handle: RandomAccessSource, size: number, point: ResumePoint): Promise<boolean> {
    this.resumeCandidate = null;
    const { extent } = point;
    if (size < extent.indexedBytes) return false;
    const head = await readBytes(handle, 0, Math.min(HEAD_SIGNATURE_BYTES, extent.indexedBytes));
    const tail = await readBytes(handle, extent.indexedBytes - Math.min(TAIL_SIGNATURE_BYTES, extent.indexedBytes), extent.indexedBytes);
    if (sha1(head) !== extent.headHash || sha1(tail) !== extent.tailHash) return false;
    this.head = head;
    this.tail = tail;
    this.committed = this.store.keepAll(point.lines);
    this.committedBytes = extent.indexedBytes;
    this.nextLineNumber = extent.nextLineNumber;
    this.resumedFrom = point;
    return true;
  }

  private async headUnchanged(handle: RandomAccessSource): Promise<boolean> {
    if (this.head.length === 0) return true;
    const now = Buffer.alloc(this.head.length);
    const { bytesRead } = await handle.read(now, 0, this.head.length, 0);
    return bytesRead === this.head.length && now.equals(this.head);
  }

  private reset(): void {
    this.committed = [];
    this.store = this.newLineStore();
    this.provisional = null;
    this.committedBytes = 0;
    this.nextLineNumber = 1;
    this.head = Buffer.alloc(0);
    this.tail = Buffer.alloc(0);
    this.reachedEnd = false;
    this.generation++;
  }

  /** The indexed line with this 1-based number, or undefined (empty lines are not indexed). */
  lineAt(number: number): IndexedLine | undefined {
    const lines = this.committed;
    let low = 0;
    let high = lines.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const value = lines[mid].line;
      if (value === number) return lines[mid];
      if (value < number) low = mid + 1;
      else high = mid - 1;
    }
    return this.provisional?.line === number ? this.provisional : undefined;
  }
}

/** The bytes from `start` to `end` (fewer when the file is shorter now). */
async function readBytes(handle: RandomAccessSource, start: number, end: number): Promise<Buffer> {
  const bytes = Buffer.alloc(end - start);
  const { bytesRead } = await handle.read(bytes, 0, bytes.length, start);
  return bytes.subarray(0, bytesRead);
}
