/** Whether the command key is ⌘ (macOS) rather than Ctrl. */
export const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const MOD = IS_MAC ? '⌘' : 'Ctrl';

export interface Shortcut {
  readonly keys: readonly string[];
  readonly what: string;
}

/** Every keyboard shortcut of the app, as the `?` list shows them. */
export const SHORTCUTS: readonly Shortcut[] = [
  { keys: [MOD, 'K'], what: 'Open the command palette: go to a page, project, session or memory, or run an action' },
  { keys: ['?'], what: 'Show this list' },
  { keys: [MOD, 'B'], what: 'Show or hide the project sidebar' },
  { keys: [MOD, 'S'], what: 'Save, in a memory editor' },
  { keys: [MOD, 'F'], what: 'Find in the transcript (Enter: next match, Shift+Enter: previous)' },
  { keys: ['Esc'], what: 'Close the palette, a dialog or the find bar' },
  { keys: ['↑', '↓'], what: 'Move through lists and tables (Home and End: first and last)' },
  { keys: ['Enter'], what: 'Open the row or item that has the focus' },
];
