import matter from 'gray-matter';
import { parse as parseYaml } from 'yaml';
import { locateFrontmatterBlock } from '../../../shared/memory/frontmatterBlock';
import type { FrontmatterVariant } from '../../../shared/model/memory';

/** Frontmatter engines that would run code if a library honoured them; we refuse them outright. */
const EXECUTABLE_LANGUAGES = new Set(['js', 'javascript', 'coffee', 'coffeescript', 'cson', 'ts', 'typescript', 'eval']);

/** Larger frontmatter than this is refused without parsing: no memory needs it, and YAML bombs do. */
export const MAX_FRONTMATTER_CHARS = 64 * 1024;

const MAX_YAML_ALIASES = 50;
/** Deeper flow nesting than this is no memory's frontmatter; the parser would spend long on it, so it is refused unparsed. */
const MAX_FLOW_DEPTH = 64;

/** The deepest `[`/`{` nesting in the text (quotes ignored: a cheap guard, not a parser). */
function flowDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return deepest;
}

/** Thrown by the engines that stand in for gray-matter's code-running ones. */
class ExecutableFrontmatterError extends Error {}

function refuseToRun(): never {
  throw new ExecutableFrontmatterError('Executable frontmatter is refused and never run');
}

/** YAML through the `yaml` package with our limits; js-yaml, gray-matter's default, accepts alias bombs that hang later. */
function parseLimitedYaml(text: string): object {
  // A scalar or null document comes back as it is; the caller checks for a mapping.
  return parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES, uniqueKeys: false, prettyErrors: false, logLevel: 'error' }) as object;
}

/**
 * gray-matter reads the block and picks the engine by the fence's language. Its `javascript` engine calls `eval`
 * (and `js`, `coffee` and friends alias to engines we do not want either), so every code-running language gets an
 * engine that refuses, and nothing is ever written back through it: edits go through the byte-preserving patcher.
 */
const SAFE_ENGINES = {
  yaml: { parse: parseLimitedYaml, stringify: refuseToRun },
  json: { parse: refuseToRun, stringify: refuseToRun },
  ...Object.fromEntries([...EXECUTABLE_LANGUAGES].map((name) => [name, { parse: refuseToRun, stringify: refuseToRun }])),
};

/**
 * The block's YAML through gray-matter, given exactly the block our locator found (the patcher uses the same
 * locator, so reading and editing always agree on where the frontmatter is). Options are always passed, which
 * also keeps gray-matter from caching every file's text for the life of the process.
 */
function readBlock(language: string | null, inner: string): unknown {
  const file = matter(`---${language ?? ''}\n${inner}\n---\n`, { engines: SAFE_ENGINES, language: 'yaml' });
  return (file as { isEmpty?: boolean }).isEmpty ? null : file.data;
}

export interface ParsedFrontmatter {
  readonly variant: FrontmatterVariant;
  /** The parsed mapping, or the line-based fallback when the YAML is broken; empty when there is none. */
  readonly data: Readonly<Record<string, unknown>>;
  /** Character offsets of the block's inner text and of the body in the source (for text patches). */
  readonly innerStart: number;
  readonly innerEnd: number;
  readonly bodyStart: number;
  readonly language: string | null;
  readonly error: string | null;
}

function noFrontmatter(): ParsedFrontmatter {
  return { variant: 'none', data: {}, innerStart: 0, innerEnd: 0, bodyStart: 0, language: null, error: null };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads `key: value` lines when the YAML does not parse, the way people's broken frontmatter is still readable. */
function lineFallback(inner: string): Record<string, unknown> {
  const data: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  let nested: Record<string, unknown> | null = null;
  for (const line of inner.split(/\r?\n/)) {
    const top = /^([A-Za-z_][\w-]*):[ \t]*(.*)$/.exec(line);
    if (top) {
      const value = top[2].trim();
      if (value === '') {
        nested = Object.create(null) as Record<string, unknown>;
        data[top[1]] = nested;
      } else {
        data[top[1]] = value.replace(/^(['"])(.*)\1$/, '$2');
        nested = null;
      }
      continue;
    }
    const child = /^[ \t]+([A-Za-z_][\w-]*):[ \t]*(.*)$/.exec(line);
    if (child && nested) nested[child[1]] = child[2].trim().replace(/^(['"])(.*)\1$/, '$2');
  }
  return data;
}

/** A recursive alias (`a: &a [*a]`) builds a value that contains itself, which nothing downstream can serialise. */
function containsItself(value: unknown, ancestors = new Set<object>(), cleared = new Set<object>()): boolean {
  if (typeof value !== 'object' || value === null || cleared.has(value)) return false;
  if (ancestors.has(value)) return true;
  ancestors.add(value);
  for (const child of Object.values(value)) if (containsItself(child, ancestors, cleared)) return true;
  ancestors.delete(value);
  cleared.add(value);
  return false;
}

function variantOf(data: Record<string, unknown>): FrontmatterVariant {
  const metadata = data.metadata;
  if (isPlainObject(metadata)) return Object.hasOwn(metadata, 'node_type') ? 'nested-node-type' : 'nested';
  return 'flat';
}

/**
 * Splits and parses a memory file's frontmatter without ever executing it. Executable engines
 * (`---js` and friends) are refused, YAML aliases are capped, oversized blocks are not parsed.
 */
export function parseFrontmatter(text: string): ParsedFrontmatter {
  const block = locateFrontmatterBlock(text);
  if (!block) return noFrontmatter();
  const { language, innerStart, innerEnd, bodyStart } = block;
  if (language && EXECUTABLE_LANGUAGES.has(language)) {
    const error = `Executable frontmatter (---${language}) is refused and never run`;
    return { variant: 'executable', data: {}, innerStart, innerEnd, bodyStart, language, error };
  }
  if (!block.closed) {
    return {
      ...noFrontmatter(),
      variant: 'invalid',
      language,
      innerStart,
      innerEnd: text.length,
      bodyStart: text.length,
      error: 'The frontmatter block is never closed with ---',
    };
  }
  const base = { innerStart, innerEnd, bodyStart, language };
  if (language && language !== 'yaml' && language !== 'yml') {
    return { ...base, variant: 'invalid', data: {}, error: `Unsupported frontmatter language: ${language}` };
  }
  const inner = text.slice(innerStart, innerEnd);
  if (inner.length > MAX_FRONTMATTER_CHARS) {
    return {
      ...base,
      variant: 'invalid',
      data: {},
      error: `Frontmatter is larger than ${MAX_FRONTMATTER_CHARS / 1024} KiB; it was not parsed`,
    };
  }
  if (flowDepth(inner) > MAX_FLOW_DEPTH) {
    return { ...base, variant: 'invalid', data: lineFallback(inner), error: 'Frontmatter is nested too deeply to parse' };
  }
  try {
    const parsed = readBlock(language, inner);
    if (parsed === null || parsed === undefined) return { ...base, variant: 'flat', data: {}, error: null };
    if (!isPlainObject(parsed)) return { ...base, variant: 'invalid', data: {}, error: 'Frontmatter is not a mapping of keys to values' };
    if (containsItself(parsed))
      return { ...base, variant: 'invalid', data: {}, error: 'Frontmatter refers to itself (a recursive YAML alias)' };
    return { ...base, variant: variantOf(parsed), data: parsed, error: null };
  } catch (error) {
    if (error instanceof ExecutableFrontmatterError)
      return { ...base, variant: 'executable', data: {}, error: `Executable frontmatter (---${language ?? ''}) is refused and never run` };
    const message = error instanceof RangeError ? 'Frontmatter is nested too deeply to parse' : (error as Error).message.split('\n')[0];
    const fallback = lineFallback(inner);
    return { ...base, variant: 'invalid', data: fallback, error: `Frontmatter is not valid YAML: ${message}` };
  }
}

function ownString(record: unknown, key: string): string | null {
  if (!isPlainObject(record) || !Object.hasOwn(record, key)) return null;
  const value = record[key];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
}

/** A field in either the flat or the nested `metadata:` layout; the flat one wins when both exist. */
export function frontmatterField(data: Readonly<Record<string, unknown>>, key: string): string | null {
  return ownString(data, key) ?? ownString(Object.hasOwn(data, 'metadata') ? data.metadata : null, key);
}
