import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';

/** Pieces are gathered into writes of about this many characters: few system calls, no large string. */
const BATCH_CHARS = 64 * 1024;
/** What a header holds in place of the hash until the body is written: as long as a SHA-1 in hex. */
const HASH_PLACEHOLDER = '0'.repeat(40);

/**
 * Writes a header line that carries the SHA-1 of the body after it, then the body, piece by piece: the body
 * is hashed and written in batches, so it never exists as one string or buffer, however large. The header
 * goes in last, over a placeholder of the same length. The file appears under `path` only once complete.
 */
export async function writeHashedFile(path: string, headerFor: (sha1: string) => string, body: Iterable<string>): Promise<void> {
  const placeholder = `${headerFor(HASH_PLACEHOLDER)}\n`;
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await fs.open(temp, 'w', 0o600);
  try {
    const hash = createHash('sha1');
    let position = Buffer.byteLength(placeholder);
    let batch: string[] = [];
    let batchChars = 0;
    const flush = async (): Promise<void> => {
      const bytes = Buffer.from(batch.join(''), 'utf8');
      batch = [];
      batchChars = 0;
      hash.update(bytes);
      await handle.write(bytes, 0, bytes.length, position);
      position += bytes.length;
    };
    for (const piece of body) {
      batch.push(piece);
      batchChars += piece.length;
      if (batchChars >= BATCH_CHARS) await flush();
    }
    await flush();
    const header = `${headerFor(hash.digest('hex'))}\n`;
    if (header.length !== placeholder.length) throw new Error('the header must not change length with its hash');
    await handle.write(header, 0, 'utf8');
    await handle.close();
    await fs.rename(temp, path);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.rm(temp, { force: true });
    throw error;
  }
}
