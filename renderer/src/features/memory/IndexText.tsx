import { entrypointCut, MAX_ENTRYPOINT_BYTES, MAX_ENTRYPOINT_LINES } from '../../../../shared/memory/modelView';

/** The three parts of an index as written: what loads, the first line that does not, and the rest. */
export function cutParts(text: string): { loaded: string; firstCut: string; rest: string; line: number | null } {
  const cut = entrypointCut(text);
  if (!cut) return { loaded: text, firstCut: '', rest: '', line: null };
  // The line break that ends the last loaded line stays with it, so the cut is drawn above the next line.
  const start = text[cut.offset] === '\n' ? cut.offset + 1 : cut.offset;
  const lineEnd = text.indexOf('\n', start);
  const end = lineEnd === -1 ? text.length : lineEnd + 1;
  return { loaded: text.slice(0, start), firstCut: text.slice(start, end), rest: text.slice(end), line: cut.line };
}

/** Why and where Claude Code stops loading, in words. */
export function cutText(text: string): string {
  const cut = entrypointCut(text);
  if (!cut) return 'Claude Code loads all of it.';
  const why = [
    cut.byLines ? `${MAX_ENTRYPOINT_LINES} lines` : null,
    cut.byChars ? `${MAX_ENTRYPOINT_BYTES.toLocaleString('en-US')} characters` : null,
  ]
    .filter(Boolean)
    .join(' and ');
  return `Claude Code stops loading at line ${cut.line} (the ${why} limit): nothing from there on reaches the model.`;
}

/**
 * An index's text with the cut drawn: the lines Claude Code loads as they are, a rule above the first line it does
 * not, and everything after it struck through. Used read-only and as the backdrop of the editor, so both look alike.
 */
export function IndexText({ text, label, hidden = 0 }: { readonly text: string; readonly label?: string; readonly hidden?: number }) {
  // `hidden` leading characters (an index's frontmatter, which the editor does not show) count towards the cut.
  const parts = cutParts(text);
  const loaded = parts.loaded.slice(hidden);
  const firstCut = parts.firstCut.slice(Math.max(0, hidden - parts.loaded.length));
  const rest = parts.rest;
  return (
    // Shown on its own (with a label) it scrolls, so it takes the focus for the keyboard; behind the editor it is hidden.
    <pre className="raw-text index-text" aria-label={label} tabIndex={label ? 0 : undefined}>
      {loaded}
      {firstCut ? (
        <mark className="cut-first" title="Claude Code does not load this line or any after it">
          {firstCut}
        </mark>
      ) : null}
      {rest ? <mark className="beyond-cut">{rest}</mark> : null}
      {/* A trailing line break needs a character after it to take up its line, as in the textarea. */}
      {'\u200b'}
    </pre>
  );
}
