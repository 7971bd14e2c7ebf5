/**
 * Suggestions for the frontmatter a memory lacks (a description, a type, a name), taken from its own text and file
 * name, and the patches that add them. The engine proves every patched file reads back with the intended values.
 */
import { MEMORY_TYPES, type MemoryType } from '../../model/memory';
import { bodyStartOf } from '../frontmatterBlock';
import { setFrontmatterField } from '../frontmatterPatch';
import { titleFromPath } from './indexFixes';
import { cutAtWord } from './textEdits';

/** Claude Code's recall step reads descriptions in a manifest line: one short sentence. */
export const SUGGESTED_DESCRIPTION_CHARS = 150;

/** Markdown reduced to its words: list markers, emphasis, code ticks and link targets go. */
function plainText(line: string): string {
  return line
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The lines of a memory's body that say something: no blanks, fences, rules or comments. */
function proseLines(text: string): { headings: string[]; prose: string[] } {
  const headings: string[] = [];
  const prose: string[] = [];
  let fenced = false;
  for (const raw of text.slice(bodyStartOf(text)).split('\n')) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced || line === '' || /^[-*_]{3,}$/.test(line) || line.startsWith('<!--')) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) headings.push(plainText(heading[1]));
    else if (!/^\*\*(why|how to apply):\*\*/i.test(line)) prose.push(plainText(line));
  }
  return { headings: headings.filter(Boolean), prose: prose.filter(Boolean) };
}

/** A one-line description from the memory's first sentence of prose (else its heading, else its file name). */
export function suggestDescription(path: string, text: string): string {
  const { headings, prose } = proseLines(text);
  const first = prose[0] ?? headings[0] ?? titleFromPath(path);
  const sentence = /^(.+?[.!?])(?:\s|$)/.exec(first)?.[1] ?? first;
  return cutAtWord(sentence, SUGGESTED_DESCRIPTION_CHARS);
}

/** A name from the memory's first heading, else its file name. */
export function suggestName(path: string, text: string): string {
  return cutAtWord(proseLines(text).headings[0] ?? titleFromPath(path), 100);
}

/**
 * The type a memory most likely has: Claude Code names files `<type>_<topic>.md` and some keep them in a folder per
 * type; an unknown value that names a type (`references`, `User`) counts as it. Otherwise `project`, the commonest.
 */
export function suggestType(path: string, rawType: string | null): MemoryType {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const fromName = MEMORY_TYPES.find((type) => base.startsWith(`${type}_`) || base.startsWith(`${type}-`));
  if (fromName) return fromName;
  const folders = path.toLowerCase().split('/').slice(0, -1);
  const fromFolder = MEMORY_TYPES.find((type) => folders.includes(type) || folders.includes(`${type}s`));
  if (fromFolder) return fromFolder;
  const raw = rawType?.toLowerCase() ?? '';
  const fromRaw = MEMORY_TYPES.find((type) => new RegExp(`\\b${type}s?\\b`).test(raw));
  if (fromRaw) return fromRaw;
  if (/prefer|persona|profile/.test(raw)) return 'user';
  if (/guid|rule|correction|lesson/.test(raw)) return 'feedback';
  if (/link|doc|resource|url/.test(raw)) return 'reference';
  return 'project';
}

/** The text with `fields` set, in order; null when the frontmatter cannot be patched (never closed, not YAML). */
export function withFields(text: string, fields: readonly (readonly [string, string])[]): string | null {
  let out: string | null = text;
  for (const [key, value] of fields) {
    out = setFrontmatterField(out, key, value);
    if (out === null) return null;
  }
  return out;
}
