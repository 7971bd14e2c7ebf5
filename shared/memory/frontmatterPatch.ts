/**
 * Edits a memory file's frontmatter by patching its text: one scalar value is replaced in place (keeping its
 * quoting style where the new value allows it, and any trailing comment), a missing key is added at the end of
 * the block — or of the nested `metadata:` block where Claude Code keeps it. Every other byte (key order,
 * comments, CRLF, BOM, the body) stays as it was. The YAML is never re-dumped.
 */
import { bodyStartOf, locateFrontmatterBlock } from './frontmatterBlock';

export type ScalarStyle = 'plain' | 'single' | 'double';

/** Keys that stay at the top level in Claude Code's nested layout; every other key lives under `metadata:`. */
const TOP_LEVEL_KEYS = new Set(['name', 'description', 'metadata']);

const YAML_NON_STRING =
  /^(?:[-+]?(?:\d[\d_]*(?:\.\d*)?(?:e[-+]?\d+)?|\.\d+(?:e[-+]?\d+)?|\.inf|\.nan|0x[0-9a-f]+|0o[0-7]+)|true|false|null|~|yes|no|on|off|y|n)$/i;

/** Whether a value reads back as the same string when written unquoted. */
function isSafePlain(value: string): boolean {
  return (
    value !== '' &&
    value === value.trim() &&
    !/^[-?:,[\]{}#&*!|>'"%@`]/.test(value) &&
    !/[\0-\x1f\x7f\u0085\u2028\u2029\uFEFF]/.test(value) &&
    !/: |:$| #/.test(value) &&
    !YAML_NON_STRING.test(value)
  );
}

function doubleQuoted(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || code === 0x85 || code === 0x2028 || code === 0x2029 || code === 0xfeff)
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/** Writes `value` as a YAML scalar in the wanted style, falling back to double quotes when that style cannot hold it. */
export function formatScalar(value: string, style: ScalarStyle): string {
  if (style === 'plain' && isSafePlain(value)) return value;
  if (style === 'single' && !/[\0-\x1f\x7f\u0085\u2028\u2029\uFEFF]/.test(value)) return `'${value.replace(/'/g, "''")}'`;
  return doubleQuoted(value);
}

interface Line {
  /** Offset of the line's first character in the whole text. */
  readonly start: number;
  /** Offset just past the content (before '\r\n' or '\n'). */
  readonly contentEnd: number;
  readonly content: string;
}

function linesOf(text: string, from: number, to: number): Line[] {
  const lines: Line[] = [];
  let start = from;
  while (start < to) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 || newline >= to ? to : newline;
    const contentEnd = end > start && text[end - 1] === '\r' && end !== to ? end - 1 : end;
    lines.push({ start, contentEnd, content: text.slice(start, contentEnd) });
    start = end === to ? to : end + 1;
  }
  return lines;
}

function indentOf(content: string): number {
  return /^[ \t]*/.exec(content)?.[0].length ?? 0;
}

const isBlank = (line: Line) => line.content.trim() === '' || /^\s*#/.test(line.content);

/** Index of the last line belonging to the value that starts on line `at` (continuation lines are more indented). */
function lastValueLine(lines: readonly Line[], at: number, keyIndent: number): number {
  let last = at;
  for (let i = at + 1; i < lines.length; i++) {
    if (isBlank(lines[i])) continue;
    if (indentOf(lines[i].content) <= keyIndent) break;
    last = i;
  }
  return last;
}

/** Where the scalar on a key line ends, so a trailing comment survives; null when it runs onto the next lines. */
function scalarEnd(rest: string): { end: number; style: ScalarStyle } | null {
  const lead = rest.length - rest.trimStart().length;
  const body = rest.slice(lead);
  if (body.startsWith("'")) {
    for (let i = 1; i < body.length; i++) {
      if (body[i] !== "'") continue;
      if (body[i + 1] === "'") {
        i++;
        continue;
      }
      return { end: lead + i + 1, style: 'single' };
    }
    return null;
  }
  if (body.startsWith('"')) {
    for (let i = 1; i < body.length; i++) {
      if (body[i] === '\\') i++;
      else if (body[i] === '"') return { end: lead + i + 1, style: 'double' };
    }
    return null;
  }
  const comment = /(^|\s)#/.exec(body);
  const scalar = comment ? body.slice(0, comment.index) : body;
  return { end: lead + scalar.trimEnd().length, style: 'plain' };
}

interface KeyLine {
  readonly index: number;
  /** Offset just after the ':' of `key:`. */
  readonly afterColon: number;
  readonly indent: number;
}

function findKey(lines: readonly Line[], key: string, indent: number, from: number, to: number): KeyLine | null {
  const pattern = new RegExp(`^[ \\t]{${indent}}${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ \\t]*:(?=\\s|$)`);
  let found: KeyLine | null = null;
  for (let i = from; i < to; i++) {
    if (indentOf(lines[i].content) !== indent) continue;
    const match = pattern.exec(lines[i].content);
    // YAML keeps the last of duplicate keys, so the last line is the one that counts.
    if (match) found = { index: i, afterColon: lines[i].start + match[0].length, indent };
  }
  return found;
}

/** The nested `metadata:` mapping: its line range and its children's indentation. */
function metadataBlock(lines: readonly Line[]): { from: number; to: number; indent: number } | null {
  const key = findKey(lines, 'metadata', 0, 0, lines.length);
  if (!key) return null;
  if (!/^[ \t]*(#.*)?$/.test(lines[key.index].content.slice(key.afterColon - lines[key.index].start))) return null;
  const last = lastValueLine(lines, key.index, 0);
  const first = lines.slice(key.index + 1, last + 1).find((line) => !isBlank(line));
  if (!first) return null;
  return { from: key.index + 1, to: last + 1, indent: indentOf(first.content) };
}

function newlineOf(text: string, from: number, to: number): string {
  const slice = text.slice(from, to);
  if (slice.includes('\r\n')) return '\r\n';
  if (slice.includes('\n')) return '\n';
  return text.includes('\r\n') ? '\r\n' : '\n';
}

function replaceValue(text: string, lines: readonly Line[], keyLine: KeyLine, value: string, style: ScalarStyle | null): string {
  const line = lines[keyLine.index];
  const last = lastValueLine(lines, keyLine.index, keyLine.indent);
  const rest = text.slice(keyLine.afterColon, line.contentEnd);
  const single = last === keyLine.index ? scalarEnd(rest) : null;
  if (single && rest.trim() !== '' && !/^\s*[|>]/.test(rest)) {
    const lead = rest.length - rest.trimStart().length;
    const scalarStart = keyLine.afterColon + lead;
    return text.slice(0, scalarStart) + formatScalar(value, style ?? single.style) + text.slice(keyLine.afterColon + single.end);
  }
  // Empty, multi-line or block values are replaced whole by a one-line scalar.
  return `${text.slice(0, keyLine.afterColon)} ${formatScalar(value, style ?? 'plain')}${text.slice(lines[last].contentEnd)}`;
}

/**
 * Sets one frontmatter field to a string value by patching the text; creates a block when the file has none.
 * Returns null when the frontmatter cannot be patched safely (never closed, or not YAML). `style` forces a
 * quoting style (the caller retries with 'double' if a re-parse does not read the value back).
 */
export function setFrontmatterField(text: string, key: string, value: string, style: ScalarStyle | null = null): string | null {
  if (!/^[A-Za-z_][\w-]*$/.test(key)) return null;
  const block = locateFrontmatterBlock(text);
  if (!block) {
    const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
    const newline = text.includes('\r\n') ? '\r\n' : '\n';
    return `${bom}---${newline}${key}: ${formatScalar(value, style ?? 'plain')}${newline}---${newline}${text.slice(bom.length)}`;
  }
  if (!block.closed || (block.language !== null && block.language !== 'yaml' && block.language !== 'yml')) return null;
  const lines = linesOf(text, block.innerStart, block.innerEnd);
  const topLevel = findKey(lines, key, 0, 0, lines.length);
  if (topLevel) return replaceValue(text, lines, topLevel, value, style);
  const metadata = metadataBlock(lines);
  if (metadata) {
    const nested = findKey(lines, key, metadata.indent, metadata.from, metadata.to);
    if (nested) return replaceValue(text, lines, nested, value, style);
  }
  const newline = newlineOf(text, 0, block.innerStart);
  if (metadata && !TOP_LEVEL_KEYS.has(key)) {
    const after = lines[metadata.to - 1];
    const insertAt = after.contentEnd;
    const entry = `${newline}${' '.repeat(metadata.indent)}${key}: ${formatScalar(value, style ?? 'plain')}`;
    return text.slice(0, insertAt) + entry + text.slice(insertAt);
  }
  const entry = `${key}: ${formatScalar(value, style ?? 'plain')}${newline}`;
  return text.slice(0, block.innerEnd) + entry + text.slice(block.innerEnd);
}

/** Replaces the body (everything after the frontmatter, or after a BOM) and keeps the frontmatter bytes. */
export function replaceBody(text: string, body: string): string {
  return text.slice(0, bodyStartOf(text)) + body;
}
