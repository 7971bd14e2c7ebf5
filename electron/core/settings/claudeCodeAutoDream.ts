import { CodedError } from '../../../shared/result';
import type { ChangeSetWriter } from '../changes/changeSetWriter';
import { CLAUDE_SETTINGS_FILE, claudeSettingsRoot } from '../changes/writeRoot';
import { isRecord } from './appSettingsFile';

/** The indentation a JSON text uses (its first indented line), so a rewrite keeps the file's look. */
function indentOf(text: string): string | number {
  const match = /\n([ \t]+)"/.exec(text);
  return match ? match[1] : 2;
}

/**
 * Sets `"autoDreamEnabled": false` in a config root's `settings.json` (created if absent) through the change-set
 * writer: the previous version goes to history first (revert the change set to undo), the write is atomic, never
 * through a symlink, and refused if the file changes between the read and the write. Every other key is kept as it
 * was, in its order; a file that is not a JSON object is left alone with an error. Returns the change set, or null
 * when it was off already.
 */
export async function turnOffClaudeCodeAutoDream(writer: ChangeSetWriter, configRoot: string): Promise<string | null> {
  const root = claudeSettingsRoot(configRoot);
  const current = await writer.readCurrent(root, CLAUDE_SETTINGS_FILE);
  const text = current.bytes?.toString('utf8') ?? null;
  let settings: Record<string, unknown> = {};
  if (text !== null && text.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch {
      throw new CodedError('INVALID_INPUT', `${configRoot}/settings.json is not valid JSON; fix it first, nothing was changed`);
    }
    if (!isRecord(parsed)) throw new CodedError('INVALID_INPUT', `${configRoot}/settings.json is not a JSON object; nothing was changed`);
    settings = parsed;
  }
  if (settings.autoDreamEnabled === false) return null;
  const next = `${JSON.stringify({ ...settings, autoDreamEnabled: false }, null, text === null ? 2 : indentOf(text))}\n`;
  const outcome = await writer.apply({
    root,
    changes: [{ path: CLAUDE_SETTINGS_FILE, base: current.hash, after: next }],
    cause: 'app-edit',
    summary: 'Turned off Claude Code’s own auto-dream (autoDreamEnabled: false): reviewed dreams consolidate this memory instead',
  });
  return outcome.changeSetId;
}
