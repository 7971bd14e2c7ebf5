import { createHash } from 'node:crypto';

/**
 * How the archive remembers the first bytes it archived of a transcript, to notice a rewrite: their length and their
 * SHA-256 (`<length>:<base64url digest>`), instead of the bytes themselves. Only equality is ever asked of them, and
 * a record is kept for every transcript for the life of the engine: as 512 hex characters they were a third of the
 * archive's memory (5.4 MB on the large bench home, 22 MB on a 10 GB one); a stamp is 47 characters. Empty before
 * anything is archived.
 */
export type HeadStamp = string;

export const NO_HEAD: HeadStamp = '';

export function headStampOf(bytes: Uint8Array): HeadStamp {
  return bytes.length === 0 ? NO_HEAD : `${bytes.length}:${createHash('sha256').update(bytes).digest('base64url')}`;
}

/** How many of the first bytes a stamp covers. */
export function headStampLength(stamp: HeadStamp): number {
  const colon = stamp.indexOf(':');
  return colon < 0 ? 0 : Number(stamp.slice(0, colon));
}

/** The stamp of a head as manifests before stamps kept it (hex of the bytes). */
export function headStampFromHex(hex: string): HeadStamp {
  return headStampOf(Buffer.from(hex, 'hex'));
}
