import { applyPatch, type StructuredPatch } from 'diff';

/** One replacement of an Edit or MultiEdit call (claude-code-state.md §2.5). */
export interface TextEdit {
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
}

/** One hunk of a tool result's `structuredPatch`: lines prefixed with ' ', '-' or '+'. */
export interface PatchHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

export type EditOutcome = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

/**
 * Replays Edit/MultiEdit replacements the way Claude Code's tools apply them: each old string must be in the
 * text (once, unless `replaceAll`), and each edit works on the result of the one before. An empty old string
 * on an empty or absent file writes the new string (Claude Code creates a file that way).
 */
export function applyEdits(text: string | null, edits: readonly TextEdit[]): EditOutcome {
  let current = text ?? '';
  for (const [index, edit] of edits.entries()) {
    const which = edits.length > 1 ? ` (edit ${index + 1} of ${edits.length})` : '';
    if (edit.oldString === '') {
      if (current !== '') return { ok: false, reason: `the edit${which} creates the file, but it already had content` };
      current = edit.newString;
      continue;
    }
    const found = occurrences(current, edit.oldString);
    if (found === 0) return { ok: false, reason: `the text the edit${which} replaces is not in the version before it` };
    if (found > 1 && !edit.replaceAll) return { ok: false, reason: `the text the edit${which} replaces is there ${found} times` };
    current = edit.replaceAll ? current.split(edit.oldString).join(edit.newString) : current.replace(edit.oldString, () => edit.newString);
  }
  return { ok: true, text: current };
}

/**
 * Applies a tool result's `structuredPatch` to the file as it was before the call (`originalFile`). Newer
 * Claude Code versions put their own frontmatter stamp (`metadata.modified`) into that patch, so it gives the
 * bytes written where replaying the call's strings would not.
 */
export function applyHunks(original: string, hunks: readonly PatchHunk[]): EditOutcome {
  if (hunks.length === 0) return { ok: false, reason: 'the patch is empty' };
  const patch: StructuredPatch = {
    oldFileName: 'a',
    newFileName: 'b',
    oldHeader: undefined,
    newHeader: undefined,
    hunks: hunks.map((hunk) => ({ ...hunk, lines: [...hunk.lines] })),
  };
  try {
    const result = applyPatch(original, patch, { autoConvertLineEndings: false });
    return result === false ? { ok: false, reason: 'the recorded patch does not fit the version before it' } : { ok: true, text: result };
  } catch {
    return { ok: false, reason: 'the recorded patch cannot be read' };
  }
}

/** Whether a later version still holds what an edit put in: the test for filling in an edit's unknown result from it. */
export function holdsNewText(text: string, edits: readonly TextEdit[]): boolean {
  const added = edits.map((edit) => edit.newString).filter((s) => s.trim() !== '');
  return added.length > 0 && added.every((s) => text.includes(s));
}
