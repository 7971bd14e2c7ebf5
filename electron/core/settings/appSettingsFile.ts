import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { replaceFileAtomically } from '../fs/replaceFileAtomically';

/** The app's own non-secret settings: one JSON object in `<dataDir>/settings.json`, one key per feature. */
const SETTINGS_FILE_NAME = 'settings.json';
const MAX_SETTINGS_BYTES = 256 * 1024;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The whole settings object; missing or broken reads as empty, so the defaults apply and the next save writes a good file. */
export async function readAppSettings(dataDir: string): Promise<Record<string, unknown>> {
  try {
    const path = join(dataDir, SETTINGS_FILE_NAME);
    const stats = await fs.stat(path);
    if (!stats.isFile() || stats.size > MAX_SETTINGS_BYTES) return {};
    const parsed: unknown = JSON.parse(await fs.readFile(path, 'utf8'));
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** Saves of one data folder, one after another: two features saving at once must not drop each other's key. */
const saving = new Map<string, Promise<void>>();

/** Replaces one key atomically (temp file + rename), keeping every other key of the file. */
export function writeAppSettingsKey(dataDir: string, key: string, value: unknown): Promise<void> {
  const path = join(dataDir, SETTINGS_FILE_NAME);
  const previous = saving.get(path) ?? Promise.resolve();
  const next = previous
    .catch(() => undefined)
    .then(async () => {
      const current = await readAppSettings(dataDir);
      await replaceFileAtomically(path, `${JSON.stringify({ ...current, [key]: value }, null, 2)}\n`);
    });
  saving.set(path, next);
  void next.finally(() => {
    if (saving.get(path) === next) saving.delete(path);
  });
  return next;
}
