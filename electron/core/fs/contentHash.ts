import { createHash } from 'node:crypto';

/** The sha256 of some bytes, hex: the identity of a file version in history and the base of every edit. */
export function contentHash(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The base an edit names: the hash it started from, or 'absent' when it creates the file. */
export type BaseHash = string;
export const ABSENT = 'absent';

export function isContentHash(value: string): boolean {
  return /^[0-9a-f]{64}$/.test(value);
}
