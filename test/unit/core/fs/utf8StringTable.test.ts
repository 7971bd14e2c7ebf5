import { describe, expect, it } from 'vitest';
import { JoinedStrings } from '../../../../electron/core/fs/binarySections';
import { Utf8StringTable } from '../../../../electron/core/fs/utf8StringTable';

/** The string table's two sections as a plain table of JavaScript strings writes them, for the same refs asked in order. */
function joined(values: readonly (string | null)[]): { refs: number[]; lengths: number[]; text: Buffer } {
  const strings = new JoinedStrings();
  const refs = values.map((value) => strings.ref(value));
  const { lengths, text } = strings.finish();
  return { refs, lengths: [...lengths], text: Buffer.concat(text) };
}

function table(values: readonly (string | null)[]): { refs: number[]; lengths: number[]; text: Buffer; strings: Utf8StringTable } {
  const strings = new Utf8StringTable();
  const refs = values.map((value) => strings.ref(value));
  return { refs, lengths: [...strings.utf16Lengths()], text: Buffer.concat(strings.textParts()), strings };
}

describe('Utf8StringTable', () => {
  it('numbers strings in the order first asked for and writes the same sections as a table of strings', () => {
    const values = ['assistant', 'u-1', null, 'u-1', '', 'ü-é', '日本語', 'emoji 😀 pair', 'assistant', '', 'x'.repeat(70_000)];
    const built = table(values);
    const expected = joined(values);
    expect(built.refs).toEqual(expected.refs);
    expect(built.lengths).toEqual(expected.lengths);
    expect(built.text.equals(expected.text)).toBe(true);
    // Each ref reads back as its string; null stays -1.
    values.forEach((value, i) => expect(built.strings.string(built.refs[i])).toBe(value));
  });

  it('keeps hundreds of thousands of strings apart through its growth', () => {
    const values: string[] = [];
    for (let i = 0; i < 200_000; i++) values.push(`id-${i % 150_000}-${'ä'.repeat(i % 3)}`);
    const built = table(values);
    const expected = joined(values);
    expect(built.strings.count).toBe(new Set(values).size);
    expect(built.refs).toEqual(expected.refs);
    expect(built.text.equals(expected.text)).toBe(true);
    expect(built.strings.find(values[149_999])).toBe(expected.refs[149_999]);
    expect(built.strings.find('not there')).toBe(-1);
    // Looking up adds nothing.
    expect(built.strings.count).toBe(new Set(values).size);
  });

  it('keeps strings with lone surrogates as themselves, and encodes the table as the joined strings', () => {
    // Each of these encodes to the same replacement bytes on its own; a high surrogate ending one string and a low one
    // starting the next make one character once joined, as a plain table writes them.
    const values = ['a\ud800', '\udc00b', 'a\ud801', 'a\ud800', '\ufffd', 'plain'];
    const built = table(values);
    const expected = joined(values);
    expect(built.refs).toEqual(expected.refs);
    expect(built.refs[0]).not.toBe(built.refs[2]);
    expect(built.lengths).toEqual(expected.lengths);
    expect(built.text.equals(expected.text)).toBe(true);
    values.forEach((value, i) => expect(built.strings.string(built.refs[i])).toBe(value));
    expect(built.strings.find('a\ud801')).toBe(built.refs[2]);
  });

  it('encodes strings given after its own as if they had been added to it', () => {
    const strings = new Utf8StringTable();
    for (const value of ['one', 'two']) strings.ref(value);
    expect(Buffer.concat(strings.textParts(['three', 'vier ü'])).equals(joined(['one', 'two', 'three', 'vier ü']).text)).toBe(true);
    expect(Buffer.concat(strings.textParts(['\udc00'])).equals(joined(['one', 'two', '\udc00']).text)).toBe(true);
  });
});
