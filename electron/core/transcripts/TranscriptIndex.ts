import { openFromDisk, type RandomAccessSource, type SourceOpener } from '../fs/randomAccessSource';
import { unreadableLine, type IndexedLine } from '../../../shared/transcript/indexedLine';
import { scanEnvelope } from './envelopeScanner';
import { MAX_LINE_BYTES, readLines } from '../jsonl/sourceLineReader';

/** Bytes at the start of the file remembered to notice a file replaced by another of at least the same size. */
const HEAD_SIGNATURE_BYTES = 256;

export type IndexUpdate = 'unchanged' | 'appended' | 'rebuilt';

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
  private provisional: IndexedLine | null = null;
  private committedBytes = 0;
  private nextLineNumber = 1;
  private identity: FileIdentity | null = null;
  private head: Buffer = Buffer.alloc(0);
  private sizeBytes = 0;
  private mtime = 0;
  private reachedEnd = false;
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
  ) {}

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
      this.identity = { dev: stats.dev, ino: stats.ino };
      const changed = stats.size !== this.sizeBytes || stats.mtimeMs !== this.mtime;
      this.sizeBytes = stats.size;
      this.mtime = stats.mtimeMs;
      if (!rebuilt && !changed && this.generation > 0 && this.reachedEnd) return 'unchanged';
      if (this.generation === 0) this.generation = 1;
      const before = this.committed.length;
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
          if (bytes === null) this.committed.push(unreadableLine(number, offset, length, 'too-long'));
          else if (bytes.length > 0) this.committed.push(scanEnvelope(bytes, number, offset));
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
      if (this.head.length < HEAD_SIGNATURE_BYTES && this.committedBytes > this.head.length) {
        const length = Math.min(HEAD_SIGNATURE_BYTES, this.committedBytes);
        const head = Buffer.alloc(length);
        await handle.read(head, 0, length, 0);
        this.head = head;
      }
      if (rebuilt) return 'rebuilt';
      return this.committed.length !== before || hadProvisional || this.provisional !== null ? 'appended' : 'unchanged';
    } finally {
      await handle.close();
    }
  }

  private async headUnchanged(handle: RandomAccessSource): Promise<boolean> {
    if (this.head.length === 0) return true;
    const now = Buffer.alloc(this.head.length);
    const { bytesRead } = await handle.read(now, 0, this.head.length, 0);
    return bytesRead === this.head.length && now.equals(this.head);
  }

  private reset(): void {
    this.committed = [];
    this.provisional = null;
    this.committedBytes = 0;
    this.nextLineNumber = 1;
    this.head = Buffer.alloc(0);
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
