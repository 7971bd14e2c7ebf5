import { SeededRandom } from './seededRandom';

/**
 * Precomputed, already JSON-escaped text the generator splices into lines. Building every line with
 * `JSON.stringify` would cap generation far below disk speed; cutting slices out of escaped pools at
 * spaces (a space is never inside a JSON escape or a surrogate pair) keeps every line valid and cheap.
 */
export interface TextPool {
  /** JSON string content (no surrounding quotes). */
  readonly text: string;
  /** The same text as UTF-8 bytes; only set for ASCII pools, where character and byte offsets agree. */
  readonly bytes: Buffer | null;
}

/** A run of pool text written as one JSON string's content; big payloads are several slices in a row. */
export interface PoolText {
  readonly pool: TextPool;
  readonly slices: readonly (readonly [number, number])[];
  readonly chars: number;
}

const WORDS = (
  'the a to of and in is that for it with as on be this by are from or at not have an but can will which ' +
  'function return const let value type file test build error cache index session memory project config ' +
  'module import export async await promise request response handler server client query offset buffer ' +
  'stream parse render state store component layout route token user agent model prompt context window ' +
  'refactor rename extract inline migrate deploy rollback retry timeout schema field column table row ' +
  'branch commit merge rebase diff patch review lint format check release version package dependency'
).split(' ');

/** Words real transcripts contain too: accents, CJK, arrows, emoji (a surrogate pair in UTF-16). */
const NON_ASCII_WORDS = ['café', 'naïve', 'Größe', 'résumé', '日本語', '中文', 'данные', '→', '—', '✓', '🚀', 'señal'];

const CODE_LINES = [
  'export function handle(request: Request): Promise<Response> {',
  '  const { id, payload } = await request.json();',
  "  if (!id) throw new Error('missing id');",
  '  return cache.get(id) ?? fetchFresh(id, { retries: 3 });',
  '}',
  'import { describe, expect, it } from "vitest";',
  '\tat Object.<anonymous> (src/server/handler.ts:42:17)',
  'PASS  test/unit/session.test.ts (12 tests) 84ms',
  'FAIL  test/integration/cache.test.ts > evicts the oldest entry',
  '  AssertionError: expected 3 to be 2 // Object.is equality',
  '$ npm run build && npm test -- --reporter=dot',
  'drwxr-xr-x  5 dev dev  4096 May  3 10:12 src',
  '-rw-r--r--  1 dev dev 18234 May  3 10:12 package.json',
  'SELECT id, name FROM sessions WHERE updated_at > $1 ORDER BY updated_at DESC;',
  'C:\\Users\\dev\\src\\app\\node_modules\\.bin\\tsc --noEmit',
  '  "scripts": { "test": "vitest run", "lint": "eslint ." },',
  'warning: unused variable `offset` in fn read_window at src/reader.rs:88',
  '    at processTicksAndRejections (node:internal/process/task_queues:95:5)',
];

function proseWord(random: SeededRandom): string {
  return random.chance(0.02) ? random.pick(NON_ASCII_WORDS) : random.pick(WORDS);
}

/** Raw prose: sentences, the odd quote, code span and paragraph break. */
function rawProse(random: SeededRandom, length: number): string {
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    const words = random.int(6, 22);
    let sentence = '';
    for (let i = 0; i < words; i++) sentence += (i === 0 ? '' : ' ') + proseWord(random);
    if (random.chance(0.1)) sentence += ` \`${random.pick(WORDS)}()\``;
    if (random.chance(0.05)) sentence += ` "${random.pick(WORDS)}"`;
    sentence = sentence[0].toUpperCase() + sentence.slice(1) + (random.chance(0.12) ? '.\n\n' : '. ');
    parts.push(sentence);
    size += sentence.length;
  }
  return parts.join('');
}

/** Raw tool output: code, stack traces, test runs, listings; ASCII only. */
function rawOutput(random: SeededRandom, length: number): string {
  const lines: string[] = [];
  let size = 0;
  while (size < length) {
    const line = random.chance(0.7) ? random.pick(CODE_LINES) : `${random.int(1, 9999)}  ${random.pick(WORDS)} ${random.pick(WORDS)} ok`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

function escaped(raw: string): string {
  return JSON.stringify(raw).slice(1, -1);
}

export interface ContentPools {
  /** Prose for prompts, answers, summaries (has non-ASCII text). */
  readonly prose: TextPool;
  /** Tool output and file contents (ASCII, so big slices are copied as bytes). */
  readonly output: TextPool;
  /** Base64 "image" data; any slice at a multiple of 4 is valid base64. */
  readonly base64: TextPool;
}

const PROSE_CHARS = 1 << 20;
const OUTPUT_CHARS = 4 << 20;
const BASE64_BYTES = 3 << 20;

export function createContentPools(seed: number): ContentPools {
  const random = new SeededRandom(seed, 'pools');
  const output = escaped(rawOutput(random, OUTPUT_CHARS));
  const imageBytes = Buffer.alloc(BASE64_BYTES);
  for (let i = 0; i < BASE64_BYTES; i += 4) imageBytes.writeUInt32LE(random.nextUint32(), i);
  const base64 = imageBytes.toString('base64');
  return {
    prose: { text: escaped(rawProse(random, PROSE_CHARS)), bytes: null },
    output: { text: output, bytes: Buffer.from(output, 'latin1') },
    base64: { text: base64, bytes: Buffer.from(base64, 'latin1') },
  };
}

/** Where a slice of about `length` characters starts and ends, both at spaces so escapes stay whole. */
function sliceBounds(pool: TextPool, length: number, random: SeededRandom): { start: number; end: number } {
  const text = pool.text;
  const wanted = Math.min(length, text.length >> 1);
  let start = text.indexOf(' ', random.int(0, text.length - wanted - 1));
  if (start < 0 || start + wanted >= text.length) start = 0;
  let end = text.indexOf(' ', start + wanted);
  if (end < 0) end = Math.max(start, text.lastIndexOf(' ', start + wanted));
  return { start, end };
}

/** A slice of about `length` characters of escaped text. */
export function sliceText(pool: TextPool, length: number, random: SeededRandom): string {
  const { start, end } = sliceBounds(pool, length, random);
  return pool.text.slice(start, end);
}

/** Bounds of `length` base64 characters (rounded to whole 4-character groups, so the slice decodes). */
export function base64Bounds(pool: TextPool, length: number, random: SeededRandom): { start: number; end: number } {
  const groups = Math.max(1, Math.min(length, pool.text.length >> 1) >> 2);
  const start = random.int(0, (pool.text.length >> 2) - groups - 1) << 2;
  return { start, end: start + (groups << 2) };
}

/** About `chars` characters of pool text, as several slices when more than one slice can hold. */
export function poolText(pool: TextPool, chars: number, random: SeededRandom): PoolText {
  const slices: [number, number][] = [];
  let total = 0;
  while (total < chars) {
    const { start, end } = sliceBounds(pool, chars - total, random);
    if (end <= start) break;
    slices.push([start, end]);
    total += end - start;
  }
  return { pool, slices, chars: total };
}

/** About `chars` characters of base64 image data. */
export function imageText(pool: TextPool, chars: number, random: SeededRandom): PoolText {
  const { start, end } = base64Bounds(pool, chars, random);
  return { pool, slices: [[start, end]], chars: end - start };
}

/** A short title in sentence case, as Claude Code's `ai-title` lines carry. */
export function titleText(random: SeededRandom): string {
  const count = random.int(3, 7);
  let title = '';
  for (let i = 0; i < count; i++) title += (i === 0 ? '' : ' ') + random.pick(WORDS);
  return title[0].toUpperCase() + title.slice(1);
}

/** A plain word (ASCII, needs no escaping): file names, patterns, commands. */
export function word(random: SeededRandom): string {
  return random.pick(WORDS);
}
