import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { readWholeFile } from './readSafely';
import { replaceFileAtomically, type ReplaceOptions } from './replaceFileAtomically';

/** Body pieces are gathered into writes of about this many characters: few system calls, no large string. */
const BATCH_CHARS = 64 * 1024;
/** What the header holds in place of the hash until the body is written: as long as a SHA-1 in hex. */
const HASH_PLACEHOLDER = '0'.repeat(40);

/**
 * A JSON cache file of the app data folder: a header line naming the format and the body's SHA-1, then the body.
 * A body that is not byte for byte what we wrote (cut short by a crash, edited, an older format) is refused for
 * the price of one hash, instead of a schema check of thousands of entries, which keeps a warm start fast.
 */
interface Header {
  readonly format?: unknown;
  readonly sha1?: unknown;
}

/** The header line at the start of these bytes, and where it ends; null when they start with no header line. */
function headerLine(bytes: Buffer): { readonly header: Header; readonly end: number } | null {
  const end = bytes.indexOf(0x0a);
  return end < 0 ? null : { header: JSON.parse(bytes.toString('utf8', 0, end)) as Header, end };
}

function sha1(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}

const HAS_NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII = /[\u0080-\uffff]/g;

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * A piece of JSON text as ASCII bytes: every character past ASCII (there are none outside strings) as its `\uXXXX`
 * escape, one beyond the BMP as its two surrogates' escapes, which `JSON.parse` joins again. Such a body is read back
 * as Latin-1 (see `readChecksummedJson`): on the 10 GB home's 79 MB catalog index, 45–58 ms of decoding instead of
 * 168–174, a parse of 263–277 ms instead of 310–313, and a string of one byte per character instead of two (the app's
 * warm start there: 1.15 s instead of 1.34). Writing it costs more (the escapes: 589–616 ms instead of 512–532 for that
 * index), but a cache is written behind the work, once, and read while the user waits.
 */
function asciiJsonBytes(json: string): Buffer {
  return HAS_NON_ASCII.test(json) ? Buffer.from(json.replace(NON_ASCII, unicodeEscape), 'latin1') : Buffer.from(json, 'latin1');
}

/** The parsed body, or null when the file is missing, too large, of another format or not what we wrote. */
export async function readChecksummedJson(path: string, format: string | number, maxBytes: number): Promise<unknown> {
  try {
    const bytes = await readWholeFile(path, maxBytes);
    if (bytes === null) return null;
    const line = headerLine(bytes);
    if (!line) return null;
    const body = bytes.subarray(line.end + 1);
    if (line.header.format !== format || line.header.sha1 !== sha1(body)) return null;
    // ASCII reads the same in both; files written before bodies were kept to ASCII are UTF-8.
    return JSON.parse(isAscii(body) ? body.toString('latin1') : body.toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

export async function writeChecksummedJson(path: string, format: string | number, value: unknown): Promise<void> {
  await writeChecksummedJsonText(path, format, [JSON.stringify(value)]);
}

/** Longer first lines are no header of ours. */
const MAX_HEADER_BYTES = 256;

/**
 * The body's SHA-1 as the file's header states it, from its first line alone (the body is neither read nor checked): what
 * a file written beside this one records to say which version of it it goes with. Null when there is no such header.
 */
export async function checksummedJsonHash(path: string): Promise<string | null> {
  try {
    const handle = await fs.open(path, 'r');
    try {
      const head = Buffer.alloc(MAX_HEADER_BYTES);
      const { bytesRead } = await handle.read(head, 0, MAX_HEADER_BYTES, 0);
      const line = headerLine(head.subarray(0, bytesRead));
      return typeof line?.header.sha1 === 'string' ? line.header.sha1 : null;
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/**
 * The same file with the body given as JSON text in pieces (a catalog index of thousands of entries): hashed
 * and written in batches, so it never exists as one string or buffer, however large. The header goes in last,
 * over a placeholder of the same length (a SHA-1 in hex is always 40 characters). Resolves with that hash.
 */
export async function writeChecksummedJsonText(
  path: string,
  format: string | number,
  body: Iterable<string>,
  options: ReplaceOptions = {},
): Promise<string> {
  const headerFor = (hash: string): string => `${JSON.stringify({ format, sha1: hash })}\n`;
  let bodyHash = '';
  await replaceFileAtomically(
    path,
    async (handle) => {
      const hash = createHash('sha1');
      let position = Buffer.byteLength(headerFor(HASH_PLACEHOLDER));
      let batch: string[] = [];
      let batchChars = 0;
      // One batch is written on the thread pool while the next is serialised here, rather than this thread idling
      // through every write (a catalog index is a few hundred batches, the last thing a build does).
      let writing: Promise<unknown> = Promise.resolve();
      const flush = async (): Promise<void> => {
        const bytes = asciiJsonBytes(batch.join(''));
        batch = [];
        batchChars = 0;
        hash.update(bytes);
        const at = position;
        position += bytes.length;
        await writing;
        writing = handle.write(bytes, 0, bytes.length, at);
        // Its failure is the write's: seen at the next flush or at the end, never left unhandled meanwhile.
        writing.catch(() => undefined);
      };
      try {
        for (const piece of body) {
          batch.push(piece);
          batchChars += piece.length;
          if (batchChars >= BATCH_CHARS) await flush();
        }
        await flush();
      } catch (error) {
        // The file is closed and removed after this: not while a write into it is still on its way.
        await writing.catch(() => undefined);
        throw error;
      }
      await writing;
      bodyHash = hash.digest('hex');
      await handle.write(headerFor(bodyHash), 0, 'utf8');
    },
    options,
  );
  return bodyHash;
}
