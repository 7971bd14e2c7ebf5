import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { ArchiveSettings } from '../../../../shared/model/archive';
import { replaceFileAtomically } from '../../fs/replaceFileAtomically';

const MAX_SETTINGS_BYTES = 64 * 1024;

/** On by default, no size cap: the point is to lose nothing Claude Code deletes. */
export const DEFAULT_ARCHIVE_SETTINGS: ArchiveSettings = { enabled: true, maxBytes: null };

function settingsPath(archiveDir: string): string {
  return join(archiveDir, 'settings.json');
}

/** The archive's settings; a missing or broken file, or a malformed value, gives the default for it. */
export async function readArchiveSettings(archiveDir: string): Promise<ArchiveSettings> {
  let value: unknown;
  try {
    const stats = await fs.stat(settingsPath(archiveDir));
    if (!stats.isFile() || stats.size > MAX_SETTINGS_BYTES) return DEFAULT_ARCHIVE_SETTINGS;
    value = JSON.parse(await fs.readFile(settingsPath(archiveDir), 'utf8'));
  } catch {
    return DEFAULT_ARCHIVE_SETTINGS;
  }
  if (!value || typeof value !== 'object') return DEFAULT_ARCHIVE_SETTINGS;
  const { enabled, maxBytes } = value as Record<string, unknown>;
  return {
    enabled: typeof enabled === 'boolean' ? enabled : DEFAULT_ARCHIVE_SETTINGS.enabled,
    maxBytes: typeof maxBytes === 'number' && Number.isSafeInteger(maxBytes) && maxBytes > 0 ? maxBytes : null,
  };
}

/** Saves the settings atomically (temp file + rename) beside the archive, in the app data folder. */
export function writeArchiveSettings(archiveDir: string, settings: ArchiveSettings): Promise<void> {
  return replaceFileAtomically(settingsPath(archiveDir), `${JSON.stringify(settings, null, 2)}\n`);
}
