import fc from 'fast-check';
import { isAscii } from 'node:buffer';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { eachOf, LineFields, pickFields, scanFields } from '../../../../electron/core/jsonl/jsonFieldScanner';
import { CATALOG_FIELDS, needsMessageTexts, parseTranscriptLine } from '../../../../electron/core/catalog/transcriptLineParser';

/** The test's fields, with its top-level number and the message's texts read as `textKind` says. */
function sampleFields(textKind: 'value' | 'deferred'): LineFields {
  return new LineFields({
    type: 'value',
    uuid: 'value',
    n: textKind,
    message: {
      id: 'value',
      usage: { output_tokens: 'value' },
      content: eachOf({ type: 'value', text: textKind, input: { file_path: 'value' } }),
    },
  });
}

const FIELDS = sampleFields('value');
const WANTED_KEYS = ['type', 'uuid', 'n', 'message', 'id', 'usage', 'output_tokens', 'content', 'text', 'input', 'file_path'];

type KeepDeferred = (record: Record<string, unknown>) => boolean;

function scanned(text: string, fields = FIELDS, keepDeferred?: KeepDeferred): Record<string, unknown> | null {
  const bytes = Buffer.from(text, 'utf8');
  return scanFields(bytes, fields, isAscii(bytes), keepDeferred);
}

function picked(text: string, fields = FIELDS, keepDeferred?: KeepDeferred): Record<string, unknown> {
  return pickFields(JSON.parse(text) as Record<string, unknown>, fields, keepDeferred);
}

/** FIELDS with the message's texts (and a top-level number) deferred. */
const DEFERRED_FIELDS = sampleFields('deferred');
/** Keeps the deferred fields of some lines and not of others, by what was read of them. */
const keepEvenTypes: KeepDeferred = (record) => typeof record.type === 'string' && record.type.length % 2 === 0;

/** Strings with escapes, control characters, quotes, backslashes, astral and lone-surrogate code units. */
const trickyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0001', '\u007f', 'é', '€', '😀', '\ud800', '\udc00', 'a', '/'), maxLength: 80 }),
  fc.string({ maxLength: 300 }),
);
const anyNumber = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.bigInt().map(Number), fc.constant(-0));
const leaf = fc.oneof(trickyString, anyNumber, fc.boolean(), fc.constant(null));
const key = fc.oneof(fc.constantFrom(...WANTED_KEYS), trickyString);
/** Objects that put wanted keys at every depth, with values of every kind (so a wanted key may hold the wrong kind). */
const { value: jsonValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 6 }),
  ),
}));
const lineObject = fc.dictionary(key, jsonValue, { minKeys: 1, maxKeys: 8 });

describe('scanFields', () => {
  it('gives what JSON.parse gives for the wanted fields of any object, however it is spaced', () => {
    fc.assert(
      fc.property(lineObject, fc.constantFrom(undefined, 1, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(scanned(text)).toEqual(picked(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads every number form as JSON.parse does', () => {
    for (const number of ['0', '-0', '1E5', '1e-7', '-12.5e+3', '123456789012345678', '9007199254740993', '0.1', '1e999', '-1e-999']) {
      const text = `{"n":${number},"uuid":"x"}`;
      expect(scanned(text)).toEqual(picked(text));
      expect(Object.is(scanned(text)?.n, picked(text).n)).toBe(true);
    }
  });

  it('keeps the last of repeated keys, and decodes escaped keys before matching them', () => {
    expect(scanned('{"type":"a","type":"b"}')).toEqual({ type: 'b' });
    expect(scanned('{"t\\u0079pe":"user"}')).toEqual({ type: 'user' });
  });

  it('empties a wanted key that holds another kind of container, as pickFields does', () => {
    const text = '{"n":{"deep":[1,2]},"message":[{"id":1}],"type":["x"]}';
    expect(scanned(text)).toEqual({ n: {}, message: [], type: [] });
    expect(scanned(text)).toEqual(picked(text));
  });

  it('hands out a repeated field as JSON.parse gives it, line after line, whatever came before', () => {
    const REPEATED = new LineFields({ cwd: 'repeated', type: 'value', message: { content: eachOf({ name: 'repeated' }) } });
    // Few spellings, so lines repeat them: one text escaped and not (`\u00e9`, `é`), a Windows path, texts one byte
    // apart, strings around the kept length; a line is all ASCII or not depending on the others.
    const spelling = fc.constantFrom(
      String.raw`"C:\\Users\\a"`,
      '"C:/Users/a"',
      '"/home/a"',
      '"/home/ab"',
      String.raw`"/home/\u00e9"`,
      '"/home/é"',
      '""',
      `"${'x'.repeat(256)}"`,
      `"${'x'.repeat(257)}"`,
      '7',
      'null',
    );
    const line = fc
      .tuple(spelling, spelling, fc.array(spelling, { maxLength: 3 }))
      .map(
        ([cwd, type, names]) =>
          `{"cwd":${cwd},"type":${type},"message":{"content":[${names.map((name) => `{"name":${name}}`).join(',')}]}}`,
      );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), (lines) => {
        for (const text of lines) expect(scanned(text, REPEATED)).toEqual(picked(text, REPEATED));
      }),
      { numRuns: 500 },
    );
  });

  it('reads deferred fields only for the lines that keep them, and then as JSON.parse gives them', () => {
    fc.assert(
      fc.property(lineObject, fc.constantFrom(undefined, 1), fc.boolean(), (value, indent, everyLine) => {
        const text = JSON.stringify(value, null, indent);
        const keep = everyLine ? undefined : keepEvenTypes;
        expect(scanned(text, DEFERRED_FIELDS, keep)).toEqual(picked(text, DEFERRED_FIELDS, keep));
        expect(isDeepStrictEqual(scanned(text, DEFERRED_FIELDS, keep), picked(text, DEFERRED_FIELDS, keep))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the last of repeated deferred keys, whatever kind each value is', () => {
    const keepAll = () => true;
    for (const block of [
      '{"text":"a","text":"b"}',
      '{"text":"a","text":5}',
      '{"text":5,"text":"a"}',
      '{"text":"a","text":{"x":1},"text":"b"}',
      '{"text":"a","text":"b","text":null}',
      '{"text":"\\u00e9","type":"t","text":"\\n"}',
    ]) {
      const text = `{"type":"ab","message":{"content":[${block}]},"n":1,"n":"two"}`;
      expect(scanned(text, DEFERRED_FIELDS, keepAll)).toStrictEqual(picked(text, DEFERRED_FIELDS, keepAll));
      const without = scanned(text, DEFERRED_FIELDS, () => false);
      expect(without).toStrictEqual(picked(text, DEFERRED_FIELDS, () => false));
      expect(Object.keys((without?.message as { content: object[] }).content[0])).not.toContain('text');
      expect(without).not.toHaveProperty('n');
    }
  });

  it('refuses a line whose kept deferred string is not valid JSON, and leaves it unread when it is not kept', () => {
    const text = '{"type":"ab","message":{"content":[{"type":"text","text":"a\tb"}]}}'.replace('\\t', '\t');
    expect(text).toContain('\t');
    expect(scanned(text, DEFERRED_FIELDS, () => true)).toBeNull();
    expect(() => JSON.parse(text)).toThrow();
    // Like any string the scanner jumps over: only its end is looked for.
    expect(scanned(text, DEFERRED_FIELDS, () => false)).toEqual({ type: 'ab', message: { content: [{ type: 'text' }] } });
  });

  it('refuses a deferred field in an array', () => {
    expect(() => new LineFields({ texts: eachOf('deferred') })).toThrow();
  });

  it('refuses every cut line and whatever is not one object', () => {
    const text = JSON.stringify({ type: 'user', message: { content: [{ type: 'text', text: 'a "quoted" \\ text' }] }, n: [1, { a: 'b' }] });
    for (let cut = 0; cut < text.length; cut++) {
      expect(scanned(text.slice(0, cut))).toBeNull();
      for (const keep of [() => true, () => false]) expect(scanned(text.slice(0, cut), DEFERRED_FIELDS, keep)).toBeNull();
    }
    for (const other of ['[]', '"x"', '1', 'null']) expect(scanned(other)).toBeNull();
    for (const bad of ['{"type":"a"}x', '{"type":tru}', '{"n":01}', '{"n":-}', '{"n":1.}', '{"type":"a",}', '{,}', '{"a" "b"}']) {
      expect(scanned(bad)).toBeNull();
      expect(() => JSON.parse(bad)).toThrow();
    }
  });
});

describe('parseTranscriptLine', () => {
  it('is JSON.parse narrowed to the catalog fields for any object line, texts for the user lines only', () => {
    const catalogKey = fc.oneof(fc.constantFrom('type', 'message', 'content', 'text', 'id', 'name', 'input', 'cwd'), trickyString);
    const { catalogValue } = fc.letrec<{ catalogValue: unknown }>((tie) => ({
      catalogValue: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.array(tie('catalogValue'), { maxLength: 4 }),
        fc.dictionary(catalogKey, tie('catalogValue'), { maxKeys: 6 }),
      ),
    }));
    const message = fc.record({ content: fc.oneof(trickyString, fc.array(fc.dictionary(catalogKey, catalogValue, { maxKeys: 5 }))) });
    const catalogLine = fc
      .tuple(fc.dictionary(catalogKey, catalogValue, { maxKeys: 6 }), fc.constantFrom('user', 'assistant', 'system', undefined), message)
      .map(([value, type, body]) => ({ ...value, ...(type === undefined ? {} : { type }), message: body }));
    fc.assert(
      fc.property(fc.oneof(lineObject, catalogLine), (value) => {
        const text = JSON.stringify(value);
        const expected = pickFields(JSON.parse(text) as Record<string, unknown>, CATALOG_FIELDS, needsMessageTexts);
        expect(isDeepStrictEqual(parseTranscriptLine(Buffer.from(text)), expected)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
