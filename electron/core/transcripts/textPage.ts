import { open } from 'node:fs/promises';

export interface TextPage {
  readonly exists: boolean;
  readonly totalBytes: number;
  readonly offset: number;
  readonly text: string;
  readonly nextOffset: number | null;
}

/**
 * About `pageBytes` of a text file from `offset`, ending before a split UTF-8 character (the next page starts
 * there); a missing file is an empty page that says so. Never reads more than a page.
 */
export async function readTextPage(path: string, offset: number, pageBytes: number): Promise<TextPage> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return { exists: false, totalBytes: 0, offset: 0, text: '', nextOffset: null };
    throw error;
  }
  try {
    const size = (await handle.stat()).size;
    const start = Math.min(offset, size);
    const buffer = Buffer.alloc(Math.min(pageBytes, size - start));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    let end = bytesRead;
    if (start + end < size) {
      // Back off to the start of a UTF-8 character the page would cut.
      let lead = end - 1;
      while (lead > 0 && (buffer[lead] & 0xc0) === 0x80) lead--;
      const length = buffer[lead] >= 0xf0 ? 4 : buffer[lead] >= 0xe0 ? 3 : buffer[lead] >= 0xc0 ? 2 : 1;
      if (lead + length > end) end = lead;
    }
    const next = start + end;
    return { exists: true, totalBytes: size, offset: start, text: buffer.toString('utf8', 0, end), nextOffset: next >= size ? null : next };
  } finally {
    await handle.close();
  }
}
