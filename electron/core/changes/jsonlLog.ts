import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A small append-only JSONL file beside the history journal (notes on change sets, dream reviews). Appends
 * are fsynced; a torn last line from a crash is skipped and never glued to the next record; reads parse
 * only what was appended since the last read; records failing `isRecord` are ignored, not trusted.
 */
export class JsonlLog<T> {
  private records: T[] = [];
  private readOffset = 0;
  private loads: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly isRecord: (value: unknown) => value is T,
  ) {}

  async append(records: readonly T[]): Promise<void> {
    if (records.length === 0) return;
    await fs.mkdir(dirname(this.path), { recursive: true });
    const handle = await fs.open(this.path, 'a+', 0o600);
    try {
      const { size } = await handle.stat();
      let prefix = '';
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) prefix = '\n';
      }
      await handle.appendFile(prefix + records.map((record) => `${JSON.stringify(record)}\n`).join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** Every record, oldest first. */
  load(): Promise<readonly T[]> {
    // One read at a time: two reads from the same offset would each add the appended records.
    const next = this.loads.then(() => this.readAppended());
    this.loads = next.catch(() => undefined);
    return next;
  }

  private async readAppended(): Promise<readonly T[]> {
    const handle = await fs.open(this.path, 'r').catch(() => null);
    if (!handle) {
      // Deleted with the rest of the store: start over.
      this.records = [];
      this.readOffset = 0;
      return this.records;
    }
    try {
      const { size } = await handle.stat();
      if (size < this.readOffset) {
        this.records = [];
        this.readOffset = 0;
      }
      if (size === this.readOffset) return this.records;
      const chunk = Buffer.alloc(size - this.readOffset);
      await handle.read(chunk, 0, chunk.length, this.readOffset);
      const lastNewline = chunk.lastIndexOf(0x0a);
      if (lastNewline === -1) return this.records;
      // Line by line from the bytes: decoded as one string and split, the whole text (twice its bytes once it holds any
      // character beyond Latin-1) stayed on the heap until the last line was parsed, 13 MB for the large bench home's
      // evidence on a first start.
      for (let start = 0; start < lastNewline;) {
        const end = chunk.indexOf(0x0a, start);
        const line = chunk.toString('utf8', start, end);
        start = end + 1;
        if (!line.trim()) continue;
        try {
          const parsed: unknown = JSON.parse(line);
          if (this.isRecord(parsed)) this.records.push(parsed);
        } catch {
          // A torn line from a crash.
        }
      }
      this.readOffset += lastNewline + 1;
      return this.records;
    } finally {
      await handle.close();
    }
  }
}
