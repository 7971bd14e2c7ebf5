import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createByteMatcher } from '../../../../electron/core/jsonl/byteMatcher';
import { searchPatternsFor } from '../../../../electron/core/search/searchPattern';

/**
 * The matcher the scanner threads used before the byte matcher, kept here as the reference: the chunk decoded as
 * Latin-1, a (case-insensitive when folding) regular expression for candidates, then a byte check that only ASCII
 * letters differ in case.
 */
function regexReference(needle: Buffer, foldCase: boolean): (bytes: Buffer, from: number, end: number) => number {
  const pattern = needle.toString('latin1');
  const matcher = new RegExp(pattern.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), foldCase ? 'gi' : 'g');
  const sameIgnoringAsciiCase = (bytes: Buffer, at: number): boolean => {
    for (let i = 0; i < needle.length; i++) {
      let a = bytes[at + i];
      let b = needle[i];
      if (a === b) continue;
      if (a >= 65 && a <= 90) a += 32;
      if (b >= 65 && b <= 90) b += 32;
      if (a !== b || a < 97 || a > 122) return false;
    }
    return true;
  };
  return (bytes, from, end) => {
    const text = bytes.toString('latin1', 0, end);
    let at = from;
    for (;;) {
      matcher.lastIndex = at;
      const found = matcher.exec(text)?.index ?? -1;
      if (found < 0) return -1;
      if (sameIgnoringAsciiCase(bytes, found)) return found;
      at = found + 1;
    }
  };
}

/** Every match from every start (overlapping ones too), as the scanner walks a chunk. */
function allMatches(find: (bytes: Buffer, from: number, end: number) => number, bytes: Buffer, end: number): number[] {
  const found: number[] = [];
  for (let at = find(bytes, 0, end); at >= 0; at = find(bytes, at + 1, end)) found.push(at);
  return found;
}

function expectSameAsRegex(needle: Buffer, haystack: Buffer, foldCase: boolean): void {
  const matcher = createByteMatcher(needle, foldCase);
  const reference = regexReference(needle, foldCase);
  // The scanner's window may end before the buffer does (the bytes after it are another chunk's).
  for (const end of [haystack.length, Math.max(0, haystack.length - 1), Math.floor(haystack.length / 2)]) {
    expect(allMatches(matcher, haystack, end)).toEqual(allMatches(reference, haystack, end));
  }
}

/** Flips the case of some ASCII letters. */
function recase(text: string, flips: readonly boolean[]): string {
  return [...text].map((char, index) => (flips[index % Math.max(1, flips.length)] ? swapCase(char) : char)).join('');
}

function swapCase(char: string): string {
  const lower = char.toLowerCase();
  return char === lower ? char.toUpperCase() : lower;
}

/** Bytes that stress case folding: ASCII letters and their neighbours, Latin-1 letters, UTF-8 lead and tail bytes. */
const trickyByte = fc.constantFrom(
  0x40,
  0x41,
  0x5a,
  0x5b,
  0x60,
  0x61,
  0x7a,
  0x7b,
  0x5c,
  0x22,
  0x0a,
  0xc3,
  0xa9,
  0xc9,
  0xe9,
  0xff,
  0xb5,
  0x80,
);
const anyByte = fc.oneof(fc.integer({ min: 0, max: 255 }), trickyByte);

describe('the byte matcher finds exactly what the regular expression and byte check found', () => {
  it('on random bytes with needles cut from them, case changed or not', () => {
    fc.assert(
      fc.property(
        fc
          .uint8Array({ minLength: 0, maxLength: 400 })
          .chain((hay) =>
            fc.tuple(
              fc.constant(hay),
              fc.array(anyByte, { minLength: 1, maxLength: 12 }),
              fc.nat(),
              fc.boolean(),
              fc.array(fc.boolean(), { maxLength: 8 }),
            ),
          ),
        ([hayBytes, ownNeedle, cut, foldCase, flips]) => {
          const haystack = Buffer.from(hayBytes);
          const start = haystack.length > 0 ? cut % haystack.length : 0;
          const fromHay = haystack.subarray(start, start + ownNeedle.length);
          const needle = fromHay.length > 0 && cut % 2 === 0 ? fromHay : Buffer.from(ownNeedle);
          const recased = Buffer.from(recase(needle.toString('latin1'), flips), 'latin1');
          expectSameAsRegex(Buffer.from(needle), haystack, foldCase);
          expectSameAsRegex(recased, haystack, foldCase);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('on small alphabets, where matches overlap and windows repeat', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(0x61, 0x41, 0x62, 0x42, 0x2d, 0xe1), { maxLength: 300 }),
        fc.array(fc.constantFrom(0x61, 0x41, 0x62, 0x42, 0x2d, 0xe1), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (hay, needle, foldCase) => expectSameAsRegex(Buffer.from(needle), Buffer.from(hay), foldCase),
      ),
      { numRuns: 1500 },
    );
  });

  it('on UTF-8 text and JSON-escaped queries, as the scanner sees transcript lines', () => {
    const word = fc.constantFrom(
      'Zebrafish',
      'ü',
      'é',
      'É',
      'ÿ',
      'µ',
      'straße',
      '中文',
      '🧪',
      'a"b',
      'x\\y',
      'tab\there',
      'line\nbreak',
      '\u001b[0m',
      'K',
      'ſ',
      ' ',
    );
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 3 }),
        fc.array(word, { maxLength: 40 }),
        fc.array(fc.boolean(), { maxLength: 5 }),
        (query, words, flips) => {
          const typed = query.join('');
          const patterns = searchPatternsFor(typed);
          const line = JSON.stringify({ text: words.join(' ') + recase(typed, flips) + words.join('') });
          const haystack = Buffer.from(`${line}\n# ${words.join(' ')} ${recase(typed, flips)}\n`, 'utf8');
          for (const pattern of [patterns.transcript, patterns.memory])
            expectSameAsRegex(Buffer.from(pattern, 'latin1'), haystack, patterns.foldCase);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('on needles longer than its largest skip, and on one-byte needles', () => {
    const long = Buffer.from(`${'abcdefghij'.repeat(30)}Q`, 'latin1');
    const hay = Buffer.concat([
      Buffer.from('xx'),
      Buffer.from(long.toString('latin1').toUpperCase(), 'latin1'),
      Buffer.from('yy'),
      long,
      long,
    ]);
    expectSameAsRegex(long, hay, true);
    expect(allMatches(createByteMatcher(long, true), hay, hay.length)).toEqual([2, 2 + long.length + 2, 2 + 2 * long.length + 2]);
    const letters = Buffer.from('aAbBa-AZ', 'latin1');
    expect(allMatches(createByteMatcher(Buffer.from('a'), true), letters, letters.length)).toEqual([0, 1, 4, 6]);
    expect(allMatches(createByteMatcher(Buffer.from('a'), false), letters, letters.length)).toEqual([0, 4]);
  });
});
