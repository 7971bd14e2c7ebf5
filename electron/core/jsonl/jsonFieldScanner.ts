// The bytes and helpers the hot loops use live in this module: imported bindings cost a lookup per use when the
// sources run unbundled (tsx, the tests, the benchmark's engine thread).
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function isJsonSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * Whether the quote at `index` is escaped: it follows an odd run of backslashes. It names no binding outside itself,
 * so the search worker, which runs from its own source text, is handed this very function (SearchWorkerPool).
 */
export function quoteIsEscaped(bytes: Uint8Array, index: number): boolean {
  let backslashes = 0;
  while (index - 1 - backslashes >= 0 && bytes[index - 1 - backslashes] === 0x5c) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * The index of the quote that closes the string opening at `open`, or -1 when it never closes. Quotes are found
 * with native `indexOf`, so a string of megabytes costs a few calls; an escaped quote is skipped.
 */
function closingQuote(line: Buffer, open: number): number {
  let close = open + 1;
  for (;;) {
    close = line.indexOf(QUOTE, close);
    if (close < 0) return -1;
    if (!quoteIsEscaped(line, close)) return close;
    close++;
  }
}

/**
 * What a reader wants of a JSON value: `'value'` keeps a scalar as it is; `'repeated'` too, for a short string that
 * mostly repeats from line to line (a session id, a working folder, a model): the scanner keeps the last one it
 * decoded for that key and hands it out again while the bytes are the same, instead of decoding them (or, for a
 * Windows path, `JSON.parse`-ing them) on every line. `'deferred'` (a field of an object, not an array's element)
 * is a value only some lines need, such as a message's text: it is read once the whole line is, and only if the
 * reader's `keepDeferred` wants it for that line (see `scanFields`), so the lines that do not need it never decode
 * it. A shape keeps the named keys of an object (each with what is wanted of it); `eachOf(want)` keeps every element
 * of an array. Whatever is not wanted is skipped.
 */
export type FieldWant = 'value' | 'repeated' | 'deferred' | FieldShape | EachElement;
export interface FieldShape {
  readonly [key: string]: FieldWant;
}

/** Every element of an array, each read as `element` asks. */
export class EachElement {
  constructor(readonly element: FieldWant) {}
}

export function eachOf(element: FieldWant): EachElement {
  return new EachElement(element);
}

const COMMA = 0x2c;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const DOT = 0x2e;
/** Keys and short strings are walked byte by byte: cheaper than a native `indexOf` call for a few bytes. */
const INLINE_STRING_BYTES = 48;
/** Integers of up to this many digits are exact in a double and are summed digit by digit. */
const EXACT_DIGITS = 15;

interface KeyEntry {
  readonly name: string;
  readonly bytes: Buffer;
  readonly want: CompiledWant;
}

/** A shape ready for the scanner: its keys grouped by their byte length, so most keys are ruled out by length alone. */
class CompiledShape {
  readonly byLength: (KeyEntry[] | undefined)[] = [];
  readonly byName = new Map<string, KeyEntry>();
}

class CompiledEach {
  constructor(readonly element: CompiledWant) {}
}

/** Repeated strings up to this many bytes are kept: a path or an id, not a text. */
const REPEATED_MAX_BYTES = 256;

/** A `'repeated'` field's last string and the bytes it was decoded from (the same bytes always decode the same). */
class CompiledRepeated {
  readonly bytes = Buffer.alloc(REPEATED_MAX_BYTES);
  length = -1;
  value = '';
}

/** A `'deferred'` field: the one instance marks every such field. */
class CompiledDeferred {}
const DEFERRED = new CompiledDeferred();

type CompiledWant = null | CompiledShape | CompiledEach | CompiledRepeated | CompiledDeferred;

/** The fields one reader needs of every line, compiled once. */
export class LineFields {
  /** @internal */
  readonly root: CompiledShape;

  constructor(shape: FieldShape) {
    this.root = compileShape(shape);
  }
}

function compileWant(want: FieldWant): CompiledWant {
  if (want === 'value') return null;
  if (want === 'repeated') return new CompiledRepeated();
  if (want === 'deferred') return DEFERRED;
  if (want instanceof EachElement) {
    if (want.element === 'deferred') throw new Error('a deferred value must be a field of an object, not an array element');
    return new CompiledEach(compileWant(want.element));
  }
  return compileShape(want);
}

function compileShape(shape: FieldShape): CompiledShape {
  const compiled = new CompiledShape();
  for (const [name, want] of Object.entries(shape)) {
    const bytes = Buffer.from(name, 'utf8');
    const entry: KeyEntry = { name, bytes, want: compileWant(want) };
    (compiled.byLength[bytes.length] ??= []).push(entry);
    compiled.byName.set(name, entry);
  }
  return compiled;
}

/** Where the value just read ended, or -1 when the line is not well-formed there. */
let cursor = 0;
/** Whether the line is all ASCII (then strings are decoded as Latin-1, which is faster and gives the same text). */
let asciiLine = false;

function skipSpace(line: Buffer, at: number): number {
  let i = at;
  while (i < line.length && isJsonSpace(line[i])) i++;
  return i;
}

/** The index of the quote closing the string that opens at `open`; short strings are walked here, long ones natively. */
function stringEnd(line: Buffer, open: number): number {
  const stop = Math.min(line.length, open + INLINE_STRING_BYTES);
  for (let i = open + 1; i < stop; i++) {
    const byte = line[i];
    if (byte === QUOTE) return i;
    if (byte === BACKSLASH) return closingQuote(line, open);
  }
  return closingQuote(line, open);
}

/** A raw control character, which JSON forbids inside a string. */
const CONTROL_CHARACTER = /[\u0000-\u001f]/;

/** A string with escapes or raw control characters: `JSON.parse` decodes it, or refuses it as it would the line. */
function parseString(line: Buffer, open: number, close: number): string | undefined {
  try {
    return JSON.parse(line.toString('utf8', open, close + 1)) as string;
  } catch {
    return undefined;
  }
}

/** The string between the quotes at `open` and `close`, exactly as `JSON.parse` gives it, or undefined when it is not valid. */
function decodeString(line: Buffer, open: number, close: number): string | undefined {
  if (close - open > INLINE_STRING_BYTES) {
    // Long texts (prompts, answers) are checked natively: a search for a backslash, then one for control characters.
    if (line.subarray(open + 1, close).indexOf(BACKSLASH) >= 0) return parseString(line, open, close);
    const text = line.toString(asciiLine ? 'latin1' : 'utf8', open + 1, close);
    return CONTROL_CHARACTER.test(text) ? parseString(line, open, close) : text;
  }
  for (let i = open + 1; i < close; i++) {
    const byte = line[i];
    if (byte === BACKSLASH || byte < 0x20) return parseString(line, open, close);
  }
  return line.toString(asciiLine ? 'latin1' : 'utf8', open + 1, close);
}

/** A number, `true`, `false` or `null` at `at`, checked against JSON's grammar; sets `cursor` past it (or to -1). */
function readLiteral(line: Buffer, at: number): number | boolean | null | undefined {
  const first = line[at];
  if (first === 0x74 /* t */) return matchWord(line, at, 'true') ? true : undefined;
  if (first === 0x66 /* f */) return matchWord(line, at, 'false') ? false : undefined;
  if (first === 0x6e /* n */) return matchWord(line, at, 'null') ? null : undefined;
  let i = at;
  if (line[i] === MINUS) i++;
  const digitsStart = i;
  let value = 0;
  if (line[i] === ZERO) i++;
  else {
    while (line[i] >= ZERO && line[i] <= NINE) value = value * 10 + (line[i++] - ZERO);
  }
  if (i === digitsStart) return fail();
  let plainInteger = i - digitsStart <= EXACT_DIGITS;
  if (line[i] === DOT) {
    plainInteger = false;
    const fraction = ++i;
    while (line[i] >= ZERO && line[i] <= NINE) i++;
    if (i === fraction) return fail();
  }
  if (line[i] === 0x65 || line[i] === 0x45 /* e E */) {
    plainInteger = false;
    i++;
    if (line[i] === 0x2b || line[i] === MINUS) i++;
    const exponent = i;
    while (line[i] >= ZERO && line[i] <= NINE) i++;
    if (i === exponent) return fail();
  }
  cursor = i;
  if (plainInteger) return first === MINUS ? -value : value;
  return Number(line.toString('latin1', at, i));
}

function matchWord(line: Buffer, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) {
    if (line[at + k] !== word.charCodeAt(k)) {
      cursor = -1;
      return false;
    }
  }
  cursor = at + word.length;
  return true;
}

function fail(): undefined {
  cursor = -1;
  return undefined;
}

/** Jumps over an object or array whose contents are not wanted: only its strings and brackets are looked at. */
function skipContainer(line: Buffer, at: number): number {
  let depth = 0;
  for (let i = at; i < line.length; i++) {
    const byte = line[i];
    if (byte === QUOTE) {
      i = stringEnd(line, i);
      if (i < 0) return -1;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth++;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/** The string between the quotes at `open` and `close`: the one decoded last for the field when the bytes are the same. */
function repeatedString(line: Buffer, open: number, close: number, repeated: CompiledRepeated): string | undefined {
  const length = close - open - 1;
  if (length === repeated.length) {
    const last = repeated.bytes;
    let k = 0;
    while (k < length && line[open + 1 + k] === last[k]) k++;
    if (k === length) return repeated.value;
  }
  const text = decodeString(line, open, close);
  if (text !== undefined && length <= REPEATED_MAX_BYTES) {
    // Copied by hand: `Buffer.copy`'s checks cost more than the few dozen bytes of an id or a path.
    const last = repeated.bytes;
    for (let k = 0; k < length; k++) last[k] = line[open + 1 + k];
    repeated.length = length;
    repeated.value = text;
  }
  return text;
}

/** Reads the value at `at` as `want` asks; sets `cursor` past it, or to -1 when it is not well-formed. */
function readValue(line: Buffer, at: number, want: CompiledWant): unknown {
  const first = line[at];
  if (first === QUOTE) {
    const close = stringEnd(line, at);
    if (close < 0) return fail();
    const text = want instanceof CompiledRepeated ? repeatedString(line, at, close, want) : decodeString(line, at, close);
    cursor = text === undefined ? -1 : close + 1;
    return text;
  }
  if (first === OPEN_BRACE) {
    if (want instanceof CompiledShape) return readObject(line, at, want);
    cursor = skipContainer(line, at);
    return {};
  }
  if (first === OPEN_BRACKET) {
    if (want instanceof CompiledEach) return readArray(line, at, want.element);
    cursor = skipContainer(line, at);
    return [];
  }
  return readLiteral(line, at);
}

/** Jumps over a value that is not wanted; sets `cursor` past it. */
function skipValue(line: Buffer, at: number): void {
  const first = line[at];
  if (first === QUOTE) {
    const close = stringEnd(line, at);
    cursor = close < 0 ? -1 : close + 1;
  } else if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    cursor = skipContainer(line, at);
  } else {
    readLiteral(line, at);
  }
}

/**
 * The deferred fields met in the line being scanned, in line order: the object each belongs to, its key, and either
 * where its string lies (`open` and `close`, the quotes) or, for any other value (`open` -1), the value itself.
 */
const deferredTargets: Record<string, unknown>[] = [];
const deferredNames: string[] = [];
const deferredOpens: number[] = [];
const deferredCloses: number[] = [];
const deferredValues: unknown[] = [];
let deferredCount = 0;

/** Notes the deferred field `name` of `target`, whose value is at `at`, without decoding it; sets `cursor` past it. */
function deferValue(line: Buffer, at: number, target: Record<string, unknown>, name: string): void {
  let open = -1;
  let close = -1;
  let value: unknown;
  if (line[at] === QUOTE) {
    close = stringEnd(line, at);
    if (close < 0) return void fail();
    open = at;
    cursor = close + 1;
  } else {
    value = readValue(line, at, null);
    if (cursor < 0) return;
  }
  const k = deferredCount++;
  deferredTargets[k] = target;
  deferredNames[k] = name;
  deferredOpens[k] = open;
  deferredCloses[k] = close;
  deferredValues[k] = value;
}

/** Sets the deferred fields noted for the line on their objects, in line order (so the last of repeated keys wins). */
function settleDeferred(line: Buffer): boolean {
  for (let k = 0; k < deferredCount; k++) {
    const open = deferredOpens[k];
    const value = open < 0 ? deferredValues[k] : decodeString(line, open, deferredCloses[k]);
    if (value === undefined) return false;
    deferredTargets[k][deferredNames[k]] = value;
  }
  return true;
}

/** Lets go of the last line's objects. */
function forgetDeferred(): void {
  for (let k = 0; k < deferredCount; k++) {
    deferredTargets[k] = EMPTY_TARGET;
    deferredValues[k] = undefined;
  }
  deferredCount = 0;
}
const EMPTY_TARGET: Record<string, unknown> = {};

/** Set by `wantedKey` when the key is not a valid JSON string; else `cursor` is set to its closing quote. */
let badKey = false;

/**
 * The wanted entry for the key whose string opens at `open`, or undefined when it is not wanted (or does not close:
 * then `cursor` is -1). A plain key is walked once, finding its end and matching it by length and bytes.
 */
function wantedKey(line: Buffer, open: number, shape: CompiledShape): KeyEntry | undefined {
  let close = open + 1;
  for (;;) {
    if (close >= line.length) return fail();
    const byte = line[close];
    if (byte === QUOTE) break;
    if (byte === BACKSLASH || byte < 0x20) return escapedKey(line, open, shape);
    close++;
  }
  cursor = close;
  const length = close - open - 1;
  const candidates = shape.byLength[length];
  if (!candidates) return undefined;
  for (const entry of candidates) {
    const bytes = entry.bytes;
    let k = 0;
    while (k < length && line[open + 1 + k] === bytes[k]) k++;
    if (k === length) return entry;
  }
  return undefined;
}

/** A key with escapes (or raw control characters, which make it invalid): rare enough to decode, then matched by name. */
function escapedKey(line: Buffer, open: number, shape: CompiledShape): KeyEntry | undefined {
  const close = closingQuote(line, open);
  if (close < 0) return fail();
  const name = decodeString(line, open, close);
  badKey = name === undefined;
  cursor = close;
  return name === undefined ? undefined : shape.byName.get(name);
}

function readObject(line: Buffer, at: number, shape: CompiledShape): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let i = skipSpace(line, at + 1);
  if (line[i] === CLOSE_BRACE) {
    cursor = i + 1;
    return out;
  }
  for (;;) {
    if (line[i] !== QUOTE) return fail();
    badKey = false;
    const entry = wantedKey(line, i, shape);
    if (badKey || cursor < 0) return fail();
    i = skipSpace(line, cursor + 1);
    if (line[i] !== COLON) return fail();
    i = skipSpace(line, i + 1);
    if (entry === undefined) skipValue(line, i);
    else if (entry.want === DEFERRED) deferValue(line, i, out, entry.name);
    else {
      const value = readValue(line, i, entry.want);
      if (cursor >= 0) out[entry.name] = value;
    }
    if (cursor < 0) return undefined;
    i = skipSpace(line, cursor);
    if (line[i] === COMMA) {
      i = skipSpace(line, i + 1);
      continue;
    }
    if (line[i] !== CLOSE_BRACE) return fail();
    cursor = i + 1;
    return out;
  }
}

function readArray(line: Buffer, at: number, element: CompiledWant): unknown[] | undefined {
  const out: unknown[] = [];
  let i = skipSpace(line, at + 1);
  if (line[i] === CLOSE_BRACKET) {
    cursor = i + 1;
    return out;
  }
  for (;;) {
    const value = readValue(line, i, element);
    if (cursor < 0) return undefined;
    out.push(value);
    i = skipSpace(line, cursor);
    if (line[i] === COMMA) {
      i = skipSpace(line, i + 1);
      continue;
    }
    if (line[i] !== CLOSE_BRACKET) return fail();
    cursor = i + 1;
    return out;
  }
}

/**
 * The wanted fields of a JSON object line, read straight from its bytes: the object is walked only where the
 * fields lie, strings that are not wanted are jumped over with native `indexOf` and nested values that are not
 * wanted are skipped bracket by bracket, so a line costs a fraction of `JSON.parse` and builds only what is kept.
 * The result equals `pickFields(JSON.parse(line), fields)` for every well-formed line (a property test holds it
 * to that on real and generated transcripts). Returns null when the line is not one well-formed object; inside
 * what it skips it only checks that strings close and brackets balance, so a caller that must reject every
 * malformed line checks the rest (the catalog falls back to `JSON.parse` when this returns null).
 *
 * `ascii`: the caller already knows the line holds no byte above 0x7f (UTF-8 validity is the caller's check too).
 * `keepDeferred`: whether a line, as read without its `'deferred'` fields, needs them; they are then read and set
 * (without it, always). A line that does not need them leaves them out, unread and unchecked, like what is skipped.
 */
export function scanFields(
  line: Buffer,
  fields: LineFields,
  ascii: boolean,
  keepDeferred?: (record: Record<string, unknown>) => boolean,
): Record<string, unknown> | null {
  asciiLine = ascii;
  deferredCount = 0;
  const start = skipSpace(line, 0);
  if (line[start] !== OPEN_BRACE) return null;
  const record = readObject(line, start, fields.root);
  const wellFormed =
    record !== undefined &&
    cursor >= 0 &&
    skipSpace(line, cursor) === line.length &&
    (deferredCount === 0 || (keepDeferred !== undefined && !keepDeferred(record)) || settleDeferred(line));
  forgetDeferred();
  return wellFormed ? record : null;
}

function pickWant(value: unknown, want: CompiledWant, withDeferred: boolean): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value))
    return want instanceof CompiledEach ? value.map((element) => pickWant(element, want.element, withDeferred)) : [];
  return want instanceof CompiledShape ? pickShape(value as Record<string, unknown>, want, withDeferred) : {};
}

function pickShape(value: Record<string, unknown>, shape: CompiledShape, withDeferred: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, entry] of shape.byName)
    if (Object.hasOwn(value, name) && (withDeferred || entry.want !== DEFERRED))
      out[name] = pickWant(value[name], entry.want, withDeferred);
  return out;
}

/**
 * The same fields taken from a parsed value: scalars as they are, wanted keys and elements kept, and every object
 * or array whose contents are not wanted emptied (`{}` or `[]`), so a reader can still tell what kind it was; the
 * `'deferred'` fields only when `keepDeferred` wants them for the value picked without them (as `scanFields`).
 */
export function pickFields(
  value: Record<string, unknown>,
  fields: LineFields,
  keepDeferred?: (record: Record<string, unknown>) => boolean,
): Record<string, unknown> {
  if (keepDeferred === undefined) return pickShape(value, fields.root, true);
  const withoutDeferred = pickShape(value, fields.root, false);
  return keepDeferred(withoutDeferred) ? pickShape(value, fields.root, true) : withoutDeferred;
}
