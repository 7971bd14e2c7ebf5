import { describe, expect, it } from 'vitest';
import {
  indexFor,
  moveOverflow,
  overflowFileName,
  removeLinkEdit,
  retargetLinkEdit,
  shortenLineEdit,
  trimOverflow,
  withPointer,
} from '../../../../../shared/memory/fixes/indexFixes';
import { applyEdits, cutAtWord, lineRange, type TextEdit } from '../../../../../shared/memory/fixes/textEdits';
import { MAX_INDEX_LINE_CHARS } from '../../../../../shared/memory/findings';
import { truncateEntrypoint } from '../../../../../shared/memory/modelView';

const edited = (text: string, edit: TextEdit | null) => (edit ? applyEdits(text, [edit]).text : text);

const INDEX =
  '# Memory\r\n\r\n- [Pnpm](user_pnpm.md) — always pnpm\r\n- [Gone](gone.md) — was here\r\n- [Both](gone.md), [and](user_pnpm.md)\r\n';

describe('text positions', () => {
  it('finds lines with their breaks, and cuts at words without splitting a surrogate pair', () => {
    expect(lineRange('a\r\nbc\nd', 2)).toEqual({ start: 3, contentEnd: 5, end: 6 });
    expect(lineRange('a\r\nbc\nd', 3)).toEqual({ start: 6, contentEnd: 7, end: 7 });
    expect(lineRange('a\n', 2)).toBeNull();
    expect(lineRange('a', 0)).toBeNull();
    expect(cutAtWord('short', 10)).toBe('short');
    expect(cutAtWord('one two three four', 12)).toBe('one two…');
    expect(cutAtWord('aaaa😀bbbb', 6)).toBe('aaaa…');
  });

  it('applies edits against the original text and leaves overlapping ones out', () => {
    const result = applyEdits('0123456789', [
      { start: 2, end: 4, text: 'ab' },
      { start: 8, end: 9, text: 'XYZ' },
      { start: 3, end: 5, text: 'no' },
    ]);
    expect(result.text).toBe('01ab4567XYZ9');
    expect(result.rejected).toEqual([{ start: 3, end: 5, text: 'no' }]);
  });
});

describe('index cures keep every other byte', () => {
  it('adds a pointer in the index’s newline style, the hook cut to keep the line short', () => {
    expect(withPointer(INDEX, '', 'new.md', 'New', 'the hook')).toBe(`${INDEX}- [New](new.md) — the hook\r\n`);
    const long = withPointer('', '', 'a.md', 'A', 'word '.repeat(60));
    expect(long.trimEnd().length).toBeLessThanOrEqual(MAX_INDEX_LINE_CHARS);
    expect(long).toMatch(/^- \[A\]\(a\.md\) — word word .*…\n$/);
    expect(withPointer('- [X](x.md)', 'team', 'team/c.md', 'C', '')).toBe('- [X](x.md)\n- [C](c.md)\n');
    expect(indexFor('project', 'team/c.md')).toEqual({ path: 'team/MEMORY.md', folder: 'team' });
    expect(indexFor('agent', 'team/c.md')).toEqual({ path: 'MEMORY.md', folder: '' });
  });

  it('removes a dangling link’s line, or only the link when the line points elsewhere too', () => {
    expect(edited(INDEX, removeLinkEdit(INDEX, '', 4, 'gone.md'))).toBe(
      '# Memory\r\n\r\n- [Pnpm](user_pnpm.md) — always pnpm\r\n- [Both](gone.md), [and](user_pnpm.md)\r\n',
    );
    expect(edited(INDEX, removeLinkEdit(INDEX, '', 5, 'gone.md'))).toBe(
      '# Memory\r\n\r\n- [Pnpm](user_pnpm.md) — always pnpm\r\n- [Gone](gone.md) — was here\r\n- Both, [and](user_pnpm.md)\r\n',
    );
    expect(removeLinkEdit(INDEX, '', 3, 'gone.md')).toBeNull();
    expect(removeLinkEdit(INDEX, '', 99, 'gone.md')).toBeNull();
  });

  it('points a dangling link at the file it meant, bracketing a target with spaces', () => {
    expect(edited(INDEX, retargetLinkEdit(INDEX, '', 4, 'gone.md', 'sub/found.md'))).toBe(
      INDEX.replace('[Gone](gone.md)', '[Gone](sub/found.md)'),
    );
    expect(edited(INDEX, retargetLinkEdit(INDEX, '', 4, 'gone.md', 'a b.md'))).toBe(INDEX.replace('[Gone](gone.md)', '[Gone](<a b.md>)'));
    const team = '- [C](<old name.md>) — h\n';
    expect(edited(team, retargetLinkEdit(team, 'team', 1, 'team/old name.md', 'team/new name.md'))).toBe('- [C](<new name.md>) — h\n');
  });

  it('shortens an index line at a word, keeping its link', () => {
    const hook =
      'explains in far too many words why the checkout flow must call the payment API before it reserves stock in the warehouse system';
    const text = `# M\n- [Checkout](project_checkout.md) — ${hook}\nnext\n`;
    const result = edited(text, shortenLineEdit(text, '', 2));
    const line = result.split('\n')[1];
    expect(line.length).toBeLessThanOrEqual(MAX_INDEX_LINE_CHARS);
    expect(line).toBe(
      '- [Checkout](project_checkout.md) — explains in far too many words why the checkout flow must call the payment API before it reserves stock in the…',
    );
    expect(result.startsWith('# M\n') && result.endsWith('\nnext\n')).toBe(true);
    const prose = `${'prose '.repeat(40)}\n`;
    expect(edited(prose, shortenLineEdit(prose, '', 1)).length).toBeLessThanOrEqual(MAX_INDEX_LINE_CHARS + 1);
    const title = `- [${'Long title '.repeat(20)}](t.md) — hook\n`;
    expect(edited(title, shortenLineEdit(title, '', 1))).toMatch(/^- \[Long title .*…\]\(t\.md\)\n$/);
    expect(shortenLineEdit('- [A](a.md) — fine\n', '', 1)).toBeNull();
  });
});

describe('the overflow past what Claude Code loads', () => {
  const lines = Array.from({ length: 230 }, (_, i) => `- [Note ${i + 1}](note_${i + 1}.md) — fact ${i + 1}`);
  const index = `${lines.join('\n')}\n`;

  it('is trimmed to the longest start that loads whole', () => {
    const trimmed = trimOverflow(index);
    expect(trimmed).toBe(`${lines.slice(0, 200).join('\n')}\n`);
    expect(trimOverflow(trimmed ?? '')).toBeNull();
  });

  it('moves into a topic file next to the index, with one pointer left where the cut was', () => {
    const moved = moveOverflow(index, '', 'memory_overflow.md');
    expect(moved).not.toBeNull();
    const kept = moved?.index ?? '';
    expect(kept).toBe(
      `${lines.slice(0, 199).join('\n')}\n- [MEMORY.md overflow](memory_overflow.md) — more pointers that did not fit in this index\n`,
    );
    const loaded = truncateEntrypoint(kept);
    expect(loaded.wasLineTruncated || loaded.wasByteTruncated).toBe(false);
    expect(moved?.overflow).toBe(
      [
        '---',
        'name: MEMORY.md overflow',
        'description: Index lines moved out of MEMORY.md, past the 200 lines / 25,000 characters Claude Code loads',
        'type: reference',
        '---',
        ...lines.slice(199),
        '',
      ].join('\n'),
    );
    expect(moveOverflow('- [A](a.md)\n', '', 'memory_overflow.md')).toBeNull();
  });

  it('cuts by characters too, and keeps CRLF', () => {
    const wide = Array.from({ length: 120 }, (_, i) => `- [N${i}](n${i}.md) — ${'x'.repeat(240)}`);
    const crlf = `${wide.join('\r\n')}\r\n`;
    const moved = moveOverflow(crlf, 'team', 'team/memory_overflow.md');
    const kept = moved?.index ?? '';
    expect(truncateEntrypoint(kept).wasByteTruncated).toBe(false);
    expect(kept.endsWith('\r\n- [MEMORY.md overflow](memory_overflow.md) — more pointers that did not fit in this index\r\n')).toBe(true);
    expect(moved?.overflow.includes('\n') && !/[^\r]\n/.test(moved.overflow)).toBe(true);
  });

  it('picks a free name for the overflow file', () => {
    expect(overflowFileName('', () => false)).toBe('memory_overflow.md');
    expect(overflowFileName('team', (p) => p === 'team/memory_overflow.md')).toBe('team/memory_overflow_2.md');
  });
});
