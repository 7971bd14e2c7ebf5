import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../../bench/generator/seededRandom';
import { asciiQueryPrefilter } from '../../../../electron/core/transcripts/findPrefilter';

/** `find`'s text test of a line, which the byte test must never turn down where it passes. */
function textTestPasses(line: string, query: string): boolean {
  const text = line.toLowerCase();
  return text.includes(query.toLowerCase()) || text.includes(JSON.stringify(query).slice(1, -1).toLowerCase());
}

// Letters in both cases, what JSON escapes, and the two characters that lower to ASCII (İ, the Kelvin sign) among others.
const ALPHABET = ['a', 'B', 'k', 'K', 'i', 'I', '"', '\\', '\n', '\t', ' ', '-', 'é', 'É', '\u0130', '\u212a', '😀', '\u0001'];
const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)];
const text = (next: () => number, length: number): string => Array.from({ length }, () => pick(next, ALPHABET)).join('');

describe('asciiQueryPrefilter', () => {
  it('passes every line the text test passes, on random JSON lines and queries', () => {
    const random = new SeededRandom(21);
    const next = () => random.next();
    let turnedDown = 0;
    for (let round = 0; round < 4000; round++) {
      const query = Array.from({ length: 1 + Math.floor(next() * 3) }, () =>
        pick(next, ['a', 'B', 'k', 'i', 'I', '"', '\\', '\n', '-', ' ', '\u0001']),
      ).join('');
      const line = JSON.stringify({ type: 'user', message: { content: text(next, Math.floor(next() * 24)) } });
      const bytes = Buffer.from(`pad${line}pad`);
      const test = asciiQueryPrefilter(query);
      expect(test, query).not.toBeNull();
      const passed = test!(bytes, 3, bytes.length - 3);
      if (textTestPasses(line, query)) expect(passed, `${JSON.stringify(query)} in ${line}`).toBe(true);
      if (!passed) turnedDown++;
    }
    // It does turn lines down (a test that passes everything would pass the check above).
    expect(turnedDown).toBeGreaterThan(1000);
  });

  it('passes lines whose match only lowering finds: İ for "i", the Kelvin sign for "k", any case of ASCII', () => {
    const check = (line: string, query: string) => {
      const bytes = Buffer.from(line);
      expect(textTestPasses(line, query)).toBe(true);
      expect(asciiQueryPrefilter(query)!(bytes, 0, bytes.length)).toBe(true);
    };
    check('{"text":"\u0130stanbul"}', 'i');
    check('{"text":"5 \u212aelvin"}', 'k');
    check('{"text":"QUOKKA Fjord"}', 'quokka fjord');
    check('{"text":"say \\"hi\\""}', 'say "hi"');
  });

  it('looks only within the line it is given', () => {
    const bytes = Buffer.from('{"a":"none"}{"a":"quokka \u212a"}');
    const test = asciiQueryPrefilter('quokka')!;
    expect(test(bytes, 0, 12)).toBe(false);
    expect(test(bytes, 12, bytes.length)).toBe(true);
    expect(asciiQueryPrefilter('zz')!(bytes, 0, 12)).toBe(false);
  });

  it('leaves a query with other characters to the text test', () => {
    expect(asciiQueryPrefilter('émile')).toBeNull();
    expect(asciiQueryPrefilter('\u212a')).toBeNull();
  });
});
