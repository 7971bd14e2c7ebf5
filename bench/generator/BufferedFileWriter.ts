import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * Appends text and byte ranges to one file through a big buffer, so a file of millions of lines costs a
 * few hundred `write` calls. Strings are encoded straight into the buffer; byte ranges (pool slices,
 * images) are copied without ever becoming strings. The caller owns the buffer and reuses it for the
 * next file once this one is closed.
 */
export class BufferedFileWriter {
  private readonly fd: number;
  private readonly buffer: Buffer;
  private used = 0;
  /** Bytes written so far, including what still sits in the buffer. */
  bytesWritten = 0;

  constructor(path: string, buffer: Buffer) {
    this.fd = openSync(path, 'wx');
    this.buffer = buffer;
  }

  text(value: string): void {
    // A UTF-16 unit never takes more than 3 UTF-8 bytes; checking that bound avoids measuring the string.
    if (value.length * 3 > this.buffer.length - this.used) {
      this.flush();
      if (value.length * 3 > this.buffer.length) {
        this.bytesWritten += writeSync(this.fd, value);
        return;
      }
    }
    const written = this.buffer.write(value, this.used);
    this.used += written;
    this.bytesWritten += written;
  }

  bytes(source: Buffer, start: number, end: number): void {
    const length = end - start;
    if (length > this.buffer.length - this.used) {
      this.flush();
      if (length > this.buffer.length) {
        writeSync(this.fd, source, start, length);
        this.bytesWritten += length;
        return;
      }
    }
    source.copy(this.buffer, this.used, start, end);
    this.used += length;
    this.bytesWritten += length;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private flush(): void {
    let offset = 0;
    while (offset < this.used) offset += writeSync(this.fd, this.buffer, offset, this.used - offset);
    this.used = 0;
  }
}
