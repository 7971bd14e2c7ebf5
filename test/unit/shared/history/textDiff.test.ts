import { describe, expect, it } from 'vitest';
import { diffTexts, foldUnchanged, lineStats, pairSegments, splitLines, toSideBySide } from '../../../../shared/history/textDiff';

describe('splitLines', () => {
  it('splits on LF and CRLF without an empty line after a final line end', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\r\nb\nc')).toEqual(['a', 'b', 'c']);
    expect(splitLines('a\n\n')).toEqual(['a', '']);
  });
});

describe('diffTexts', () => {
  it('numbers lines on both sides and pairs a changed line with its replacement, marking the words that differ', () => {
    const diff = diffTexts('one\ntwo old words\nthree\n', 'one\ntwo new words\nthree\nfour\n');
    expect(diff.linesAdded).toBe(2);
    expect(diff.linesRemoved).toBe(1);
    expect(diff.lines.map((l) => l.kind)).toEqual(['same', 'removed', 'added', 'same', 'added']);
    const removed = diff.lines[1];
    const added = diff.lines[2];
    if (removed.kind !== 'removed' || added.kind !== 'added') throw new Error('unexpected shape');
    expect(removed.oldLine).toBe(2);
    expect(added.newLine).toBe(2);
    expect(removed.segments.filter((s) => s.changed).map((s) => s.text)).toEqual(['old']);
    expect(added.segments.filter((s) => s.changed).map((s) => s.text)).toEqual(['new']);
    // The words of a line always join back to the line.
    expect(added.segments.map((s) => s.text).join('')).toBe('two new words');
    const last = diff.lines[4];
    expect(last.kind === 'added' && last.newLine).toBe(4);
  });

  it('treats a missing side as an empty file', () => {
    expect(diffTexts(null, 'a\nb\n')).toMatchObject({ linesAdded: 2, linesRemoved: 0 });
    expect(diffTexts('a\n', null)).toMatchObject({ linesAdded: 0, linesRemoved: 1 });
    expect(lineStats(null, null)).toEqual({ linesAdded: 0, linesRemoved: 0 });
  });

  it('does not mark words in lines too long to be worth it', () => {
    const long = 'x '.repeat(3000);
    const { removed, added } = pairSegments(long, `${long}y`);
    expect(removed).toEqual([{ text: long, changed: false }]);
    expect(added).toEqual([{ text: `${long}y`, changed: false }]);
  });
});

describe('foldUnchanged and toSideBySide', () => {
  const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
  const after = before.replace('line 10', 'line ten');

  it('keeps three lines of context around a change and folds the rest', () => {
    const folded = foldUnchanged(diffTexts(before, after).lines);
    expect(folded[0]).toEqual({ kind: 'skipped', count: 7 });
    expect(folded[folded.length - 1]).toEqual({ kind: 'skipped', count: 6 });
    expect(folded.filter((l) => l.kind === 'same')).toHaveLength(6);
  });

  it('puts a replaced line beside its replacement and an added line beside nothing', () => {
    const rows = toSideBySide(diffTexts('a\nb\n', 'a\nB\nc\n').lines);
    expect(rows).toHaveLength(3);
    const [same, changed, extra] = rows;
    expect(same.kind === 'pair' && same.left?.kind).toBe('same');
    expect(changed).toMatchObject({ kind: 'pair', left: { kind: 'removed', line: 2 }, right: { kind: 'added', line: 2 } });
    expect(extra).toMatchObject({ kind: 'pair', left: null, right: { kind: 'added', line: 3 } });
  });
});
