import { join } from 'node:path';
import { readSmallText } from '../fs/readSafely';

const MAX_INDEX_BYTES = 16 * 1024 * 1024;

/** The `projectPath` recorded in an optional, sometimes stale `sessions-index.json`, if any. */
export async function readSessionsIndexProjectPath(projectDir: string): Promise<string | null> {
  try {
    const parsed: unknown = JSON.parse(await readSmallText(join(projectDir, 'sessions-index.json'), MAX_INDEX_BYTES));
    const entries = (parsed as { entries?: unknown }).entries;
    if (!Array.isArray(entries)) return null;
    for (const entry of entries) {
      const projectPath = (entry as { projectPath?: unknown } | null)?.projectPath;
      if (typeof projectPath === 'string' && projectPath !== '') return projectPath;
    }
    return null;
  } catch {
    return null;
  }
}
