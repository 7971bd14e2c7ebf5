import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frontmatterField, parseFrontmatter } from '../../../../electron/core/memory/frontmatter';
import { bodyStartOf } from '../../../../shared/memory/frontmatterBlock';
import { formatScalar, replaceBody, setFrontmatterField, type ScalarStyle } from '../../../../shared/memory/frontmatterPatch';

/** What the engine does: patch, read back, and retry with double quotes when the first style does not round-trip. */
function patch(text: string, key: string, value: string): string | null {
  for (const style of [null, 'double'] as const) {
    const out = setFrontmatterField(text, key, value, style);
    if (out === null) return null;
    const parsed = parseFrontmatter(out);
    if (parsed.error === null && frontmatterField(parsed.data, key) === value) return out;
  }
  return null;
}

function lines(text: string): string[] {
  return text.split(/(?<=\n)/);
}

/** Lines of `after` that are not in `before` at the same place, allowing one inserted line. */
function changedLines(before: string, after: string): number {
  const a = lines(before);
  const b = lines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length - 1;
  let endB = b.length - 1;
  while (endA >= start && endB >= start && a[endA] === b[endB]) {
    endA--;
    endB--;
  }
  return Math.max(endA - start + 1, endB - start + 1);
}

describe('setFrontmatterField: examples', () => {
  it('replaces a plain value in place, keeping the comment, CRLF, BOM, order and body', () => {
    const text = '\uFEFF---\r\nname: Old name # keep me\r\n# a comment\r\ndescription: "quoted"\r\ntype: user\r\n---\r\nBody\r\n';
    const out = setFrontmatterField(text, 'name', 'New name');
    expect(out).toBe('\uFEFF---\r\nname: New name # keep me\r\n# a comment\r\ndescription: "quoted"\r\ntype: user\r\n---\r\nBody\r\n');
  });

  it('keeps single and double quoting', () => {
    expect(setFrontmatterField("---\ndescription: 'it''s'\n---\n", 'description', "don't")).toBe("---\ndescription: 'don''t'\n---\n");
    expect(setFrontmatterField('---\ndescription: "a: b"\n---\n', 'description', 'c "d"')).toBe('---\ndescription: "c \\"d\\""\n---\n');
  });

  it('quotes a value that would not read back as written', () => {
    expect(setFrontmatterField('---\nname: x\n---\n', 'name', 'true')).toBe('---\nname: "true"\n---\n');
    expect(setFrontmatterField('---\nname: x\n---\n', 'name', 'a: b # c')).toBe('---\nname: "a: b # c"\n---\n');
  });

  it('patches the nested metadata.type where Claude Code keeps it, and adds missing keys in the right block', () => {
    const nested = '---\nname: n\ndescription: d\nmetadata: \n  node_type: memory\n  type: feedback\n---\nBody\n';
    expect(setFrontmatterField(nested, 'type', 'project')).toBe(nested.replace('  type: feedback', '  type: project'));
    const noType = '---\nname: n\nmetadata:\n  node_type: memory\n---\nBody\n';
    expect(setFrontmatterField(noType, 'type', 'user')).toBe('---\nname: n\nmetadata:\n  node_type: memory\n  type: user\n---\nBody\n');
    expect(setFrontmatterField(noType, 'description', 'new')).toBe(
      '---\nname: n\nmetadata:\n  node_type: memory\ndescription: new\n---\nBody\n',
    );
  });

  it('replaces a multi-line block value with one line and keeps what follows', () => {
    const text = '---\ndescription: |\n  line one\n  line two\ntype: user\n---\n';
    expect(setFrontmatterField(text, 'description', 'one line')).toBe('---\ndescription: one line\ntype: user\n---\n');
  });

  it('adds a block to a file without frontmatter, after a BOM, in the file newline style', () => {
    expect(setFrontmatterField('\uFEFFHello\r\nWorld\r\n', 'type', 'user')).toBe('\uFEFF---\r\ntype: user\r\n---\r\nHello\r\nWorld\r\n');
  });

  it('patches the last of duplicate keys (the one YAML keeps)', () => {
    expect(setFrontmatterField('---\nname: a\nname: b\n---\n', 'name', 'c')).toBe('---\nname: a\nname: c\n---\n');
  });

  it('refuses an unclosed block or a non-YAML language', () => {
    expect(setFrontmatterField('---\nname: a\n', 'name', 'b')).toBeNull();
    expect(setFrontmatterField('---js\n{}\n---\n', 'name', 'b')).toBeNull();
    expect(setFrontmatterField('---toml\nname = "a"\n---\n', 'name', 'b')).toBeNull();
  });

  it('replaceBody keeps the frontmatter bytes', () => {
    const text = '---\r\nname: a # c\r\n---\r\nold body\r\n';
    expect(replaceBody(text, 'new body\r\n')).toBe('---\r\nname: a # c\r\n---\r\nnew body\r\n');
    expect(replaceBody('\uFEFFno fm', 'x')).toBe('\uFEFFx');
  });
});

const KEYS = ['name', 'description', 'type', 'originSessionId', 'status', 'tags'] as const;
const styleArb = fc.constantFrom<ScalarStyle>('plain', 'single', 'double');
const valueArb = fc.string({ maxLength: 40 }).filter((s) => !/[\r\n]/.test(s));
const entryArb = fc.record({
  key: fc.constantFrom(...KEYS),
  value: valueArb,
  style: styleArb,
  comment: fc.option(fc.constantFrom('# note', '#x', '# ü'), { nil: null }),
});
const fileArb = fc.record({
  entries: fc.uniqueArray(entryArb, { selector: (e) => e.key, maxLength: 5 }),
  nested: fc.option(fc.uniqueArray(entryArb, { selector: (e) => e.key, maxLength: 3 }), { nil: null }),
  comments: fc.array(fc.constantFrom('# top comment', '', '#'), { maxLength: 2 }),
  eol: fc.constantFrom('\n', '\r\n'),
  bom: fc.boolean(),
  body: fc.string({ maxLength: 60 }),
});

type GeneratedFile = typeof fileArb extends fc.Arbitrary<infer T> ? T : never;

function build(file: GeneratedFile): string {
  const lines: string[] = [...file.comments];
  const scalar = (e: { value: string; style: ScalarStyle; comment: string | null }) => {
    const written = formatScalar(e.value, e.style);
    // A trailing comment needs a space before it, and an empty plain value turns a comment into the value.
    return e.comment && written !== '' ? `${written} ${e.comment}` : written;
  };
  for (const e of file.entries) lines.push(`${e.key}: ${scalar(e)}`);
  if (file.nested && file.nested.length > 0) {
    lines.push('metadata: ');
    for (const e of file.nested) lines.push(`  ${e.key}: ${scalar(e)}`);
  }
  return `${file.bom ? '\uFEFF' : ''}---${file.eol}${lines.map((l) => l + file.eol).join('')}---${file.eol}${file.body}`;
}

describe('setFrontmatterField: properties', () => {
  it('reads the new value back, changes or adds exactly one line, and keeps the body and every other field', () => {
    fc.assert(
      fc.property(fileArb, fc.constantFrom(...KEYS), valueArb, (file, key, value) => {
        const text = build(file);
        const before = parseFrontmatter(text);
        fc.pre(before.error === null);
        const out = patch(text, key, value);
        expect(out).not.toBeNull();
        const after = parseFrontmatter(out as string);
        expect(frontmatterField(after.data, key)).toBe(value);
        expect(changedLines(text, out as string)).toBe(out === text ? 0 : 1);
        if (out === text) expect(frontmatterField(before.data, key)).toBe(value);
        expect((out as string).slice(bodyStartOf(out as string))).toBe(text.slice(bodyStartOf(text)));
        for (const other of KEYS) {
          if (other === key) continue;
          expect(frontmatterField(after.data, other)).toBe(frontmatterField(before.data, other));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('never touches bytes outside the frontmatter block', () => {
    fc.assert(
      fc.property(fileArb, valueArb, (file, value) => {
        const text = build(file);
        const out = setFrontmatterField(text, 'description', value, 'double');
        fc.pre(out !== null);
        expect((out as string).startsWith(file.bom ? '\uFEFF---' : '---')).toBe(true);
        expect((out as string).endsWith(`---${file.eol}${file.body}`)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
