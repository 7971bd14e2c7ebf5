import { gunzipSync, gzipSync } from 'node:zlib';
import { MAX_BACKUP_ARCHIVE_BYTES } from '../../../../shared/history/backupModel';
import { CodedError } from '../../../../shared/result';

const BLOCK = 512;
const MAX_ENTRIES = 20_000;

export interface ArchiveFile {
  /** Forward slashes, relative. */
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly mtimeMs: number;
}

function writeString(block: Buffer, offset: number, length: number, value: string): void {
  block.write(value, offset, Math.min(length, Buffer.byteLength(value)), 'utf8');
}

function writeOctal(block: Buffer, offset: number, length: number, value: number): void {
  writeString(
    block,
    offset,
    length,
    `${Math.floor(value)
      .toString(8)
      .padStart(length - 1, '0')}\0`,
  );
}

function header(name: string, size: number, mtimeMs: number, type: string, prefix = ''): Buffer {
  const block = Buffer.alloc(BLOCK);
  writeString(block, 0, 100, name);
  writeOctal(block, 100, 8, 0o644);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, mtimeMs / 1000);
  block.fill(0x20, 148, 156);
  writeString(block, 156, 1, type);
  writeString(block, 257, 6, 'ustar\0');
  writeString(block, 263, 2, '00');
  writeString(block, 345, 155, prefix);
  let sum = 0;
  for (const byte of block) sum += byte;
  writeString(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

function padding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** Splits a long name into ustar's prefix and name fields, or null when it needs a PAX header. */
function ustarName(name: string): { name: string; prefix: string } | null {
  if (Buffer.byteLength(name) <= 100) return { name, prefix: '' };
  for (let cut = name.indexOf('/'); cut > 0; cut = name.indexOf('/', cut + 1)) {
    const prefix = name.slice(0, cut);
    const rest = name.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100) return { name: rest, prefix };
  }
  return null;
}

function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return `${length}${body}`;
}

/** A gzip-compressed ustar archive of the files, written by our own code (no native or third-party packer). */
export function writeTarGz(files: readonly ArchiveFile[]): Buffer {
  const parts: Buffer[] = [];
  for (const file of files) {
    const split = ustarName(file.name);
    if (!split) {
      const pax = Buffer.from(paxRecord('path', file.name), 'utf8');
      parts.push(header('PaxHeader', pax.length, file.mtimeMs, 'x'), pax, padding(pax.length));
    }
    const { name, prefix } = split ?? { name: file.name.slice(-100), prefix: '' };
    parts.push(header(name, file.bytes.length, file.mtimeMs, '0', prefix), Buffer.from(file.bytes), padding(file.bytes.length));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts));
}

function readString(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? length : end).toString('utf8');
}

function readOctal(block: Buffer, offset: number, length: number): number {
  const text = readString(block, offset, length).trim();
  if (!/^[0-7]*$/.test(text)) throw new CodedError('INVALID_INPUT', 'Not a valid archive: a size or time field is damaged');
  return text === '' ? 0 : Number.parseInt(text, 8);
}

function checksumOk(block: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i];
  return sum === readOctal(block, 148, 8);
}

/** The `path` of a PAX extended header: records of "<length> <key>=<value>\n", lengths counted in bytes. */
function paxPath(data: Buffer): string | null {
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space < 0) return null;
    const length = Number.parseInt(data.subarray(at, space).toString('latin1'), 10);
    if (!(length > 0) || at + length > data.length) return null;
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    if (record.startsWith('path=')) return record.slice(5);
    at += length;
  }
  return null;
}

export interface ReadArchive {
  readonly files: readonly ArchiveFile[];
  /** Entries that are not plain files (links, devices, …): listed, never extracted. */
  readonly skipped: readonly string[];
}

/**
 * Reads a tar archive (gzipped or not) into memory, refusing anything that is not one or is too large.
 * Only regular files are returned; links and special entries are named in `skipped`. Names are returned as
 * written: the caller decides which are acceptable paths.
 */
export function readTar(archive: Uint8Array): ReadArchive {
  let data: Buffer = Buffer.from(archive);
  if (data[0] === 0x1f && data[1] === 0x8b) {
    try {
      data = gunzipSync(data, { maxOutputLength: MAX_BACKUP_ARCHIVE_BYTES });
    } catch {
      throw new CodedError('INVALID_INPUT', 'Not a valid archive: it cannot be decompressed, or it unpacks to more than 64 MB');
    }
  }
  if (data.length > MAX_BACKUP_ARCHIVE_BYTES) throw new CodedError('INVALID_INPUT', 'The archive is larger than 64 MB');
  const files: ArchiveFile[] = [];
  const skipped: string[] = [];
  let offset = 0;
  let longName: string | null = null;
  while (offset + BLOCK <= data.length) {
    const block = data.subarray(offset, offset + BLOCK);
    if (block.every((byte) => byte === 0)) break;
    if (!checksumOk(block)) throw new CodedError('INVALID_INPUT', 'Not a valid archive: a header checksum does not match');
    const size = readOctal(block, 124, 12);
    const type = readString(block, 156, 1);
    const prefix = readString(block, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${readString(block, 0, 100)}` : readString(block, 0, 100));
    const start = offset + BLOCK;
    const end = start + size;
    if (end > data.length) throw new CodedError('INVALID_INPUT', 'Not a valid archive: it ends in the middle of a file');
    const body = data.subarray(start, end);
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      longName = paxPath(body);
      continue;
    }
    if (type === 'L') {
      longName = body.toString('utf8').replace(/\0+$/, '');
      continue;
    }
    longName = null;
    if (type === 'g' || type === '5') continue;
    if (type !== '0' && type !== '' && type !== '7') {
      skipped.push(name);
      continue;
    }
    if (files.length >= MAX_ENTRIES) throw new CodedError('INVALID_INPUT', `The archive holds more than ${MAX_ENTRIES} files`);
    files.push({ name, bytes: Buffer.from(body), mtimeMs: readOctal(block, 136, 12) * 1000 });
  }
  return { files, skipped };
}
