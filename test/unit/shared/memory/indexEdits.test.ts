import { describe, expect, it } from 'vitest';
import { appendPointer, removePointersTo, retargetPointers, targetFromIndex } from '../../../../shared/memory/indexEdits';
import { parseIndex, resolveIndexTarget } from '../../../../shared/memory/memoryIndex';

const INDEX =
  '# Memory\r\n\r\n- [Pnpm](user_pnpm.md) — always pnpm\r\n- [Push](feedback_push.md) — never force\r\n- [Both](user_pnpm.md), [and](other.md)\r\n';

describe('parseIndex', () => {
  it('classifies lines and resolves links relative to the index folder', () => {
    const parsed = parseIndex('# T\n\n- [A](a.md) — x\nsome prose\n<!-- c\nstill -->\n- [W](https://x.y/a.md)\n', '');
    expect(parsed.lines.map((l) => l.kind)).toEqual(['heading', 'blank', 'pointer', 'prose', 'comment', 'comment', 'prose', 'blank']);
    expect(parsed.links.map((l) => l.resolved)).toEqual(['a.md', null]);
    expect(resolveIndexTarget('team', 'conv.md')).toBe('team/conv.md');
    expect(resolveIndexTarget('team', '../a%20b.md#x')).toBe('a b.md');
    expect(resolveIndexTarget('', '../escape.md')).toBeNull();
  });
});

describe('index edits keep every other byte', () => {
  it('appends a pointer in the index newline style', () => {
    expect(appendPointer(INDEX, '', 'new.md', 'New', 'a hook')).toBe(`${INDEX}- [New](new.md) — a hook\r\n`);
    expect(appendPointer('- [A](a.md)', '', 'b.md', 'B', '')).toBe('- [A](a.md)\n- [B](b.md)\n');
    expect(appendPointer('', 'team', 'team/c.md', 'C', 'h')).toBe('- [C](c.md) — h\n');
  });

  it('removes only the lines that point at the pruned file alone', () => {
    const { text, removed } = removePointersTo(INDEX, '', 'user_pnpm.md');
    expect(removed).toBe(1);
    expect(text).toBe('# Memory\r\n\r\n- [Push](feedback_push.md) — never force\r\n- [Both](user_pnpm.md), [and](other.md)\r\n');
    expect(removePointersTo(INDEX, '', 'absent.md')).toEqual({ text: INDEX, removed: 0 });
  });

  it('retargets links to a renamed file and leaves titles alone', () => {
    const { text, changed } = retargetPointers(INDEX, '', 'user_pnpm.md', 'user/pnpm.md');
    expect(changed).toBe(2);
    expect(text).toBe(INDEX.replaceAll('](user_pnpm.md)', '](user/pnpm.md)'));
  });

  it('writes targets relative to a team index', () => {
    expect(targetFromIndex('team', 'team/a.md')).toBe('a.md');
    expect(targetFromIndex('team', 'b.md')).toBe('../b.md');
  });
});
