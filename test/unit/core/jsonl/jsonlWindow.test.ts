import { describe, expect, it } from 'vitest';
import { findFieldInWindow, parseWindowLines } from '../../../../electron/core/jsonl/jsonlWindow';

const buf = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('parseWindowLines', () => {
  it('parses every complete line of a whole file, skipping blank and CR-only lines', () => {
    const result = parseWindowLines(buf('{"a":1}\n\n{"b":2}\r\n\r\n{"c":3}\n'), true, true);
    expect(result.records).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
    expect(result).toMatchObject({ invalidUtf8: 0, invalidJson: 0, overlongLine: false, hasNul: false });
  });

  it('accepts a last line without newline when the window ends the file', () => {
    expect(parseWindowLines(buf('{"a":1}\n{"b":2}'), true, true).records).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('does not count a half-written last line of the file as an error (a live session)', () => {
    const result = parseWindowLines(buf('{"a":1}\n{"type":"assist'), true, true);
    expect(result.records).toEqual([{ a: 1 }]);
    expect(result.invalidJson).toBe(0);
  });

  it('counts broken JSON lines and non-object JSON values', () => {
    const result = parseWindowLines(buf('{"a":1}\n{broken\n[1,2]\n42\n"str"\nnull\n{"b":2}\n'), true, true);
    expect(result.records).toEqual([{ a: 1 }, { b: 2 }]);
    expect(result.invalidJson).toBe(5);
  });

  it('drops the partial first line of a window that does not start the file', () => {
    const result = parseWindowLines(buf('tail of a cut line"}\n{"a":1}\n{"b":2}\n'), false, true);
    expect(result.records).toEqual([{ a: 1 }, { b: 2 }]);
    expect(result.invalidJson).toBe(0);
  });

  it('drops the partial last line of a window that does not end the file', () => {
    const result = parseWindowLines(buf('{"a":1}\n{"b":2}\n{"c":'), true, false);
    expect(result.records).toEqual([{ a: 1 }, { b: 2 }]);
    expect(result.invalidJson).toBe(0);
    expect(result.overlongLine).toBe(false);
  });

  it('reports a window without any newline as one overlong line', () => {
    expect(parseWindowLines(buf('{"a":"xxxxxxxx'), true, false)).toMatchObject({ records: [], overlongLine: true });
    expect(parseWindowLines(buf('xxxxxxxx"}'), false, true)).toMatchObject({ records: [], overlongLine: true });
    expect(parseWindowLines(buf('{"a":1}'), true, true).overlongLine).toBe(false);
  });

  it('counts lines with invalid UTF-8 and keeps the valid ones', () => {
    const bad = Buffer.concat([buf('{"a":"'), Buffer.from([0xff, 0xfe, 0xc3]), buf('"}\n')]);
    const result = parseWindowLines(Buffer.concat([buf('{"ok":1}\n'), bad, buf('{"ok":2}\n')]), true, true);
    expect(result.records).toEqual([{ ok: 1 }, { ok: 2 }]);
    expect(result.invalidUtf8).toBe(1);
    expect(result.invalidJson).toBe(0);
  });

  it('decodes multi-byte UTF-8 (emoji, CJK) correctly', () => {
    const result = parseWindowLines(buf('{"t":"日本語 😀"}\n'), true, true);
    expect(result.records).toEqual([{ t: '日本語 😀' }]);
  });

  it('flags NUL bytes (binary data)', () => {
    const result = parseWindowLines(Buffer.from([0x7b, 0x00, 0x7d, 0x0a, 0x00, 0x01]), true, true);
    expect(result.hasNul).toBe(true);
    expect(result.records).toEqual([]);
  });

  it('handles an empty window', () => {
    expect(parseWindowLines(Buffer.alloc(0), true, true)).toEqual({
      records: [],
      invalidUtf8: 0,
      invalidJson: 0,
      overlongLine: false,
      hasNul: false,
    });
  });
});

describe('findFieldInWindow', () => {
  /** What searching every record of `parseWindowLines` gives: the first (or last) non-empty string value of the field. */
  function fromAllRecords(window: Buffer, startsFile: boolean, endsFile: boolean, field: string, fromEnd: boolean): string | null {
    const records = parseWindowLines(window, startsFile, endsFile).records;
    const values = records.map((record) => record[field]).filter((value): value is string => typeof value === 'string' && value !== '');
    return (fromEnd ? values.at(-1) : values[0]) ?? null;
  }

  const windows: Record<string, Buffer> = {
    plain: buf('{"cwd":"/a","timestamp":"t1"}\n{"cwd":"/b","timestamp":"t2"}\n'),
    'cut at both ends': buf('d":"/cut","timestamp":"t0"}\n{"cwd":"/a"}\n{"timestamp":"t1"}\n{"cwd":"/b","timestamp":"t2'),
    'empty, CR-only and blank values': buf('\n\r\n{"cwd":"","timestamp":""}\n{"cwd":"/a"}\r\n{"timestamp":"t1"}\r\n{"cwd":""}\n'),
    'broken and non-object lines': buf('{broken\n["cwd","/x"]\n"cwd"\nnull\n{"cwd":"/a","timestamp":"t1"}\n{"cwd":42}\n{"timestamp":"t2"'),
    'nested fields only': buf('{"message":{"cwd":"/nested","timestamp":"tn"}}\n{"cwd":"/top"}\n'),
    'invalid UTF-8': Buffer.concat([buf('{"cwd":"/'), Buffer.from([0xff, 0xfe]), buf('"}\n{"cwd":"/ok","timestamp":"t"}\n')]),
    'one overlong line': buf('{"cwd":"/only","timestamp":"t"}'),
    'no line end': buf('xxxxxxxx'),
    empty: Buffer.alloc(0),
    'NUL bytes': Buffer.concat([Buffer.from([0x7b, 0x00, 0x7d, 0x0a]), buf('{"cwd":"/after-nul"}\n')]),
  };

  for (const [name, window] of Object.entries(windows)) {
    it(`finds what the parsed records hold: ${name}`, () => {
      for (const startsFile of [true, false])
        for (const endsFile of [true, false])
          for (const fromEnd of [false, true])
            for (const field of ['cwd', 'timestamp', 'absent'])
              expect(findFieldInWindow(window, startsFile, endsFile, field, fromEnd), `${startsFile} ${endsFile} ${fromEnd} ${field}`).toBe(
                fromAllRecords(window, startsFile, endsFile, field, fromEnd),
              );
    });
  }

  it('reads the nearest line that has the field, from either end', () => {
    expect(findFieldInWindow(windows.plain, true, true, 'cwd', false)).toBe('/a');
    expect(findFieldInWindow(windows.plain, true, true, 'cwd', true)).toBe('/b');
    expect(findFieldInWindow(windows['cut at both ends'], false, false, 'timestamp', true)).toBe('t1');
  });
});
