import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { replaceFileAtomically } from './replaceFileAtomically';

/**
 * A JSON cache file of the app data folder: a header line naming the format and the body's SHA-1, then the body.
 * A body that is not byte for byte what we wrote (cut short by a crash, edited, an older format) is refused for
 * the price of one hash, instead of a schema check of thousands of entries, which keeps a warm start fast.
 */
interface Header {
  readonly format?: unknown;
  readonly sha1?: unknown;
}

function sha1(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}

/** The parsed body, or null when the file is missing, too large, of another format or not what we wrote. */
export async function readChecksummedJson(path: string, format: string | number, maxBytes: number): Promise<unknown> {
  try {
    const stats = await fs.stat(path);
    if (stats.size > maxBytes) return null;
    const bytes = await fs.readFile(path);
    const headerEnd = bytes.indexOf(0x0a);
    if (headerEnd < 0) return null;
    const header = JSON.parse(bytes.toString('utf8', 0, headerEnd)) as Header;
    const body = bytes.subarray(headerEnd + 1);
    if (header.format !== format || header.sha1 !== sha1(body)) return null;
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

export async function writeChecksummedJson(path: string, format: string | number, value: unknown): Promise<void> {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  const header = JSON.stringify({ format, sha1: sha1(body) });
  await replaceFileAtomically(path, Buffer.concat([Buffer.from(`${header}\n`), body]));
}
