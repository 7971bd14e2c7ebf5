/**
 * Reads a MEMORY.md index as Claude Code means it: one line per memory, `- [Title](file.md) — hook`.
 * Pure text work; link targets are resolved against the folder that holds the index.
 */

export interface IndexLink {
  /** 1-based line number in the raw text. */
  readonly line: number;
  readonly title: string;
  /** The target exactly as written. */
  readonly target: string;
  /** The target as a path relative to the memory folder (forward slashes), or null when it is not a local `.md` file. */
  readonly resolved: string | null;
}

/** A link on one line, with where it sits in that line's text (UTF-16 offsets, end exclusive). */
export interface LineLink {
  readonly start: number;
  readonly end: number;
  readonly title: string;
  readonly target: string;
  readonly resolved: string | null;
}

export interface IndexLine {
  readonly line: number;
  readonly text: string;
  readonly kind: 'blank' | 'heading' | 'pointer' | 'prose' | 'comment';
}

export interface ParsedIndex {
  readonly lines: readonly IndexLine[];
  readonly links: readonly IndexLink[];
}

const LINK = /\[([^\]\n]*)\]\(\s*(?:<([^>\n]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g;

/** Joins `base` (a folder relative to the memory folder, '' for its top) with a relative link; null when it leaves the folder. */
export function resolveRelative(base: string, target: string): string | null {
  const parts = base ? base.split('/') : [];
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.length > 0 ? parts.join('/') : null;
}

function decodeTarget(target: string): string {
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}

/** A link target as a memory-folder-relative `.md` path, or null for URLs, anchors and other files. */
export function resolveIndexTarget(indexFolder: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/')) return null;
  const path = decodeTarget(target.split('#')[0].split('?')[0]);
  if (!path.toLowerCase().endsWith('.md')) return null;
  return resolveRelative(indexFolder, path.replace(/\\/g, '/'));
}

/** Every markdown link on one line of an index, in order, with its place in the line. */
export function linksOnLine(lineText: string, indexFolder: string): LineLink[] {
  const out: LineLink[] = [];
  for (const match of lineText.matchAll(LINK)) {
    const target = match[2] ?? match[3];
    out.push({
      start: match.index,
      end: match.index + match[0].length,
      title: match[1],
      target,
      resolved: resolveIndexTarget(indexFolder, target),
    });
  }
  return out;
}

/** Splits an index into classified lines and the links it holds. `indexFolder` is '' for MEMORY.md, 'team' for team/MEMORY.md. */
export function parseIndex(raw: string, indexFolder = ''): ParsedIndex {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const lines: IndexLine[] = [];
  const links: IndexLink[] = [];
  let inComment = false;
  text.split('\n').forEach((rawLine, index) => {
    const lineText = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    const line = index + 1;
    const trimmed = lineText.trim();
    let found = 0;
    for (const link of linksOnLine(trimmed, indexFolder)) {
      links.push({ line, title: link.title, target: link.target, resolved: link.resolved });
      if (link.resolved !== null) found++;
    }
    let kind: IndexLine['kind'];
    if (inComment) {
      kind = 'comment';
      inComment = !trimmed.includes('-->');
    } else if (trimmed.startsWith('<!--')) {
      kind = 'comment';
      inComment = !trimmed.includes('-->');
    } else if (trimmed === '') kind = 'blank';
    else if (/^#{1,6}\s/.test(trimmed) || /^[-*_]{3,}$/.test(trimmed)) kind = 'heading';
    else if (found > 0) kind = 'pointer';
    else kind = 'prose';
    lines.push({ line, text: lineText, kind });
  });
  return { lines, links };
}

/** The pointer line Claude Code's prompt asks for: `- [Title](file.md) — hook`. */
export function pointerLine(title: string, target: string, hook: string): string {
  const cleanTitle = title.replace(/[[\]\n\r]/g, ' ').trim() || target;
  const cleanHook = hook.replace(/[\n\r]+/g, ' ').trim();
  const link = /[\s()<>]/.test(target) ? `<${target}>` : target;
  return cleanHook ? `- [${cleanTitle}](${link}) — ${cleanHook}` : `- [${cleanTitle}](${link})`;
}
