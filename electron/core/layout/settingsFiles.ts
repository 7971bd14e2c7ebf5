import { isAbsolute, join, normalize, sep } from 'node:path';
import { homedir } from 'node:os';
import type { ItemWarning } from '../../../shared/model/warnings';
import { describeFsError, readSmallText, warning } from '../fs/readSafely';

const MAX_SETTINGS_BYTES = 1024 * 1024;

export interface SettingsRead {
  readonly values: Record<string, unknown> | null;
  readonly warning: ItemWarning | null;
}

/** Reads a Claude Code settings JSON file; a missing file is not a problem, a broken one is a warning. */
export async function readSettingsFile(path: string): Promise<SettingsRead> {
  let text: string;
  try {
    text = await readSmallText(path, MAX_SETTINGS_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { values: null, warning: null };
    return { values: null, warning: warning('unreadable', `Cannot read settings: ${describeFsError(error)}`, path) };
  }
  try {
    const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return { values: null, warning: warning('settings-invalid-json', 'Settings file is not a JSON object; it was ignored', path) };
    }
    return { values: parsed as Record<string, unknown>, warning: null };
  } catch (error) {
    return {
      values: null,
      warning: warning('settings-invalid-json', `Settings file is not valid JSON (${(error as Error).message}); it was ignored`, path),
    };
  }
}

/**
 * Validates an `autoMemoryDirectory` value the way Claude Code does: `~/` is expanded; the result must be
 * absolute, not a drive root or UNC share, and free of NUL. Returns null for anything else.
 */
export function validateMemoryDirectory(raw: unknown, home: string = homedir()): string | null {
  if (typeof raw !== 'string' || raw.trim() === '' || raw.includes('\0')) return null;
  let candidate = raw.trim();
  const fromHome = candidate.startsWith('~/') || candidate.startsWith('~\\');
  if (fromHome) candidate = join(home, candidate.slice(2));
  if (candidate.startsWith('\\\\') || candidate.startsWith('//')) return null;
  const normalized = normalizeFolder(candidate);
  // `~/` must stay strictly inside home, however it is spelled (`~/..`, `~/..\`, `~///..`).
  if (fromHome && !normalized.startsWith(normalizeFolder(home) + sep)) return null;
  if (!isAbsolute(normalized) || normalized.length < 3 || /^[A-Za-z]:$/.test(normalized)) return null;
  return normalized.normalize('NFC');
}

/** Normalises and drops trailing separators until neither changes the path: `/a/.\` becomes `/a/.`, then `/a`. */
function normalizeFolder(path: string): string {
  let previous = '';
  let current = path;
  while (current !== previous) {
    previous = current;
    current = normalize(current).replace(/[/\\]+$/, '');
  }
  return current;
}
