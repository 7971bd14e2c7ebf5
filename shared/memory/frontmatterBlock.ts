/** Where a memory file's frontmatter sits in its text; pure, so the parser and the text patcher agree on it. */
export interface FrontmatterBlock {
  /** The word after the opening `---` (`js`, `yaml`…), lower-cased, or null. */
  readonly language: string | null;
  /** Character offsets of the block's inner text (between the fences) and of the body. */
  readonly innerStart: number;
  readonly innerEnd: number;
  readonly bodyStart: number;
  /** False when the opening fence is never closed: then the whole rest of the file is the inner text. */
  readonly closed: boolean;
}

const OPEN = /^\uFEFF?---([A-Za-z]*)[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*(?:\r?\n|$)/m;

/** Finds the frontmatter block, or null when the file does not start with a `---` fence. */
export function locateFrontmatterBlock(text: string): FrontmatterBlock | null {
  const open = OPEN.exec(text);
  if (!open) return null;
  const language = open[1].toLowerCase() || null;
  const innerStart = open[0].length;
  const close = CLOSE.exec(text.slice(innerStart));
  if (!close) return { language, innerStart, innerEnd: text.length, bodyStart: text.length, closed: false };
  const innerEnd = innerStart + close.index;
  return { language, innerStart, innerEnd, bodyStart: innerEnd + close[0].length, closed: true };
}

/** The text before the body: a BOM alone when there is no frontmatter. */
export function bodyStartOf(text: string): number {
  const block = locateFrontmatterBlock(text);
  if (block) return block.bodyStart;
  return text.charCodeAt(0) === 0xfeff ? 1 : 0;
}
