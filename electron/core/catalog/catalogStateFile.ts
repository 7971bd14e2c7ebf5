import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG_CACHE_FORMAT } from './catalogCacheFormat';
import { replaceFileAtomicallySync } from '../fs/replaceFileAtomicallySync';

/** A transcript's saved aggregate state in the state folder, named by its path's SHA-1. */
export function stateFilePath(stateDir: string, path: string): string {
  return join(stateDir, `${createHash('sha1').update(path).digest('hex')}.json`);
}

/** A state file's text: the same as `JSON.stringify` of the whole record, without parsing the state back first. */
export function stateFileText(path: string, fileId: string, offset: number, stateText: string): string {
  return `{"format":${JSON.stringify(CATALOG_CACHE_FORMAT)},"path":${JSON.stringify(path)},"fileId":${JSON.stringify(fileId)},"offset":${JSON.stringify(offset)},"state":${stateText}}`;
}

/**
 * Saves a state file in blocking calls, where the scan worker read the file: its text never crosses to the engine's
 * thread, which would otherwise spend a promise chain per file writing it. A write that fails costs nothing but
 * speed (the file is read again from the start when it grows), as with `CatalogStore.saveStateInBackground`.
 */
export function saveStateFileSync(stateDir: string, path: string, fileId: string, offset: number, stateText: string): void {
  const target = stateFilePath(stateDir, path);
  const text = stateFileText(path, fileId, offset, stateText);
  // The folder is made once per thread, not before each of a build's hundreds of states (a blocking call each) …
  if (stateDirsMade.has(stateDir) && wrote(target, text)) return;
  // … and again when a write finds it gone.
  try {
    mkdirSync(stateDir, { recursive: true });
    stateDirsMade.add(stateDir);
    replaceFileAtomicallySync(target, text);
  } catch {
    // See above: a missing state only means a full read later.
    stateDirsMade.delete(stateDir);
  }
}

/** The state folders this thread has made (or found) already. */
const stateDirsMade = new Set<string>();

function wrote(target: string, text: string): boolean {
  try {
    replaceFileAtomicallySync(target, text);
    return true;
  } catch {
    return false;
  }
}
