import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyHunkSelection, hunkCount } from '../../../../shared/jobs/diffParts';
import { diffParts, toProposal, unifiedDiff } from '../../../../electron/core/jobs/proposalDiff';

const line = fc.constantFrom('alpha', 'beta', 'gamma', '- [x](x.md) — hook', '', 'δ unicode', 'tab\there');
const text = fc
  .tuple(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, eol, finalNewline]) => (lines.length === 0 ? '' : lines.join(eol) + (finalNewline ? eol : '')));

describe('hunks of a proposed change', () => {
  it('give back the new text when every hunk is taken and the old one when none is, byte for byte', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const parts = diffParts(before, after);
        const all = Array.from({ length: hunkCount(parts) }, (_, i) => i);
        expect(applyHunkSelection(parts, all)).toBe(after);
        expect(applyHunkSelection(parts, [])).toBe(before);
      }),
    );
  });

  it('take exactly the chosen hunk', () => {
    const before = 'one\ntwo\nthree\nfour\nfive\n';
    const after = 'ONE\ntwo\nthree\nfour\nFIVE\nsix\n';
    const parts = diffParts(before, after);
    expect(hunkCount(parts)).toBe(2);
    expect(applyHunkSelection(parts, [0])).toBe('ONE\ntwo\nthree\nfour\nfive\n');
    expect(applyHunkSelection(parts, [1])).toBe('one\ntwo\nthree\nfour\nFIVE\nsix\n');
  });

  it('keep a file without a final newline intact', () => {
    const parts = diffParts('a\nb', 'a\nc');
    expect(applyHunkSelection(parts, [0])).toBe('a\nc');
    expect(applyHunkSelection(parts, [])).toBe('a\nb');
  });
});

describe('a proposal built from a staged change', () => {
  it('is an add, a modify or a delete with a unified diff against /dev/null where a side is missing', () => {
    const hash = 'a'.repeat(64);
    const add = toProposal({ path: 'new.md', base: null, after: 'hello\n' });
    expect(add).toMatchObject({ kind: 'add', baseHash: null, before: null, after: 'hello\n' });
    expect(add.diff).toContain('--- /dev/null');
    expect(add.diff).toContain('+hello');
    const modify = toProposal({ path: 'a.md', base: { kind: 'text', content: 'x\n', hash, bytes: 2 }, after: 'y\n' });
    expect(modify).toMatchObject({ kind: 'modify', baseHash: hash });
    const remove = toProposal({ path: 'a.md', base: { kind: 'text', content: 'x\n', hash, bytes: 2 }, after: null });
    expect(remove).toMatchObject({ kind: 'delete', after: null });
    expect(remove.diff).toContain('+++ /dev/null');
    expect(unifiedDiff('a.md', 'x\n', 'y\n')).toContain('-x\n+y');
  });
});
