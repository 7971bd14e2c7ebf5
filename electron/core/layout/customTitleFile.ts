import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The file is `{"customTitle":"…"}`; anything much bigger is not Claude Code's. */
const MAX_BYTES = 16 * 1024;

/** Where Claude Code 2.1.3xx keeps the title `/rename` gave a session: beside its transcript, in its session folder. */
export function customTitlePath(projectDir: string, sessionId: string): string {
  return join(projectDir, sessionId, 'custom-title.json');
}

/**
 * The title in a session's `custom-title.json`, or null when there is none (or it is not the expected shape).
 * Blocking on purpose, like the catalog's other small reads: a stat that fails costs microseconds.
 */
export function readCustomTitleFile(path: string): string | null {
  // Most sessions have none: a stat that finds nothing costs a tenth of an open that throws (an Error and its stack).
  if (!statSync(path, { throwIfNoEntry: false })) return null;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(MAX_BYTES);
    const length = readSync(fd, buffer, 0, MAX_BYTES, 0);
    const value: unknown = JSON.parse(buffer.toString('utf8', 0, length));
    const title = value && typeof value === 'object' ? (value as { customTitle?: unknown }).customTitle : null;
    return typeof title === 'string' && title.trim() !== '' ? title : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
