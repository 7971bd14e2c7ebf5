/** What each warning on an item means and what to do about it, for the Warnings page. */
import type { WarningCode } from './warnings';

export interface WarningInfo {
  /** A short label for badges and headings. */
  readonly label: string;
  /** What it means, and what the app did about it. */
  readonly explanation: string;
  /** What the person can do. */
  readonly fix: string;
}

export const WARNING_INFO: Readonly<Record<WarningCode, WarningInfo>> = {
  unreadable: {
    label: 'cannot be read',
    explanation:
      'The file or folder could not be read (permissions, a lock, or it is too large); it is left out, and the rest still loads.',
    fix: 'Check its permissions and owner (ls -l); a file that is too large can be trimmed or moved elsewhere.',
  },
  'broken-symlink': {
    label: 'broken symlink',
    explanation: 'A symlink points at something that does not exist; it is skipped.',
    fix: 'Remove the link, or restore what it pointed at.',
  },
  'empty-file': {
    label: 'empty file',
    explanation:
      'The transcript holds no bytes, so there is no session to show; Claude Code leaves such files after a crash or an aborted start.',
    fix: 'Nothing is lost: delete the empty file if it bothers you.',
  },
  'binary-file': {
    label: 'not text',
    explanation: 'The file holds binary data where text was expected; it is listed but not read or changed.',
    fix: 'Move it out of the memory folder, or replace it with a Markdown file.',
  },
  'invalid-utf8': {
    label: 'invalid UTF-8',
    explanation:
      'Some bytes are not valid UTF-8; they are shown as replacement characters and the file is not edited here, so no byte changes.',
    fix: 'Re-save the file as UTF-8 in an editor that shows the encoding.',
  },
  'invalid-json-line': {
    label: 'unreadable lines',
    explanation:
      'Lines of the transcript are not valid JSON (often a line cut off when Claude Code was killed); they are skipped and the rest is read.',
    fix: 'Nothing to do: Claude Code never reads those lines either. Keep the file if you may want the rest.',
  },
  'line-too-long': {
    label: 'line too long',
    explanation:
      'A line is longer than what is read at once; it is skipped (or only its start is checked), and the rest of the file is read.',
    fix: 'Nothing to do for a transcript; a memory file that long should be split into shorter topic files.',
  },
  'settings-invalid-json': {
    label: 'settings unreadable',
    explanation: 'The settings file is not valid JSON, so none of its settings apply here (Claude Code ignores it as well).',
    fix: 'Fix the JSON (a trailing comma or a missing quote, usually): `jq . settings.json` shows where.',
  },
  'settings-ignored': {
    label: 'setting ignored',
    explanation:
      'A setting was found where Claude Code does not honour it (a repository may not move its memory folder), so it is ignored.',
    fix: 'Move `autoMemoryDirectory` into your user settings or the project’s `.claude/settings.local.json`.',
  },
  'settings-invalid-path': {
    label: 'bad path in settings',
    explanation: 'A path in the settings is not absolute (nor a ~/ path), so it is ignored and the default memory folder is used.',
    fix: 'Write the folder as an absolute path or a path starting with ~/.',
  },
  'frontmatter-executable': {
    label: 'executable frontmatter',
    explanation: 'The frontmatter is in a programming language (---js and the like); it is never run, and the file is not edited here.',
    fix: 'Rewrite the frontmatter as YAML between --- fences.',
  },
  'frontmatter-invalid': {
    label: 'broken frontmatter',
    explanation: 'The frontmatter is not valid YAML, so none of its fields are read.',
    fix: 'Open the file on the Memory page and fix the YAML between the --- fences (quote values with a colon in them).',
  },
  'not-a-directory': {
    label: 'not a folder',
    explanation: 'A folder was expected here but this is a file or a symlink; it is left alone.',
    fix: 'Rename or remove what is in the way, so the folder can exist.',
  },
  'snapshot-invalid': {
    label: 'snapshot problem',
    explanation:
      'An agent memory snapshot cannot be used as it is (two snapshot folders map to one memory folder, say); the one named is ignored.',
    fix: 'Keep one snapshot folder per agent in .claude/agent-memory-snapshots and commit the change.',
  },
  'outside-root': {
    label: 'leads outside',
    explanation:
      'A folder leads outside its project (or config root) through a symlink; nothing in it is read, written or sent to a model.',
    fix: 'If the link is meant, move the folder inside the project; if not, remove the symlink.',
  },
};
