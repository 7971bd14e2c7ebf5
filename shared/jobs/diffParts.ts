/**
 * A proposed file change as a sequence of unchanged runs and changes. Each `change` part is one hunk the
 * user can take or leave; joining the parts back with a choice per hunk gives the exact text to write.
 */
export interface DiffPart {
  readonly kind: 'same' | 'change';
  /** The text on the old side ('' for a pure insertion). For `same` parts, equal to `after`. */
  readonly before: string;
  /** The text on the new side ('' for a pure removal). */
  readonly after: string;
}

/** How many hunks (change parts) a proposal has; hunk numbers run from 0 to this minus one. */
export function hunkCount(parts: readonly DiffPart[]): number {
  return parts.reduce((count, part) => count + (part.kind === 'change' ? 1 : 0), 0);
}

/** The text that results from taking the new side of the chosen hunks and the old side of all others. */
export function applyHunkSelection(parts: readonly DiffPart[], chosenHunks: readonly number[]): string {
  const chosen = new Set(chosenHunks);
  let hunk = 0;
  let text = '';
  for (const part of parts) {
    if (part.kind === 'same') {
      text += part.before;
      continue;
    }
    text += chosen.has(hunk) ? part.after : part.before;
    hunk++;
  }
  return text;
}
