import { describe, expect, it } from 'vitest';
import { frontmatterField, MAX_FRONTMATTER_CHARS, parseFrontmatter } from '../../../../electron/core/memory/frontmatter';
import { topicFile } from '../../../fixtures/scenarioHome';

declare global {
  var __ccmemFrontmatterCanary: unknown;
}

describe('parseFrontmatter: the three real variants', () => {
  it('flat (documented; Eduardodmb style with top-level originSessionId)', () => {
    const text = [
      '---',
      'name: Never execute git commands',
      'description: User does not want Claude to execute any git commands via PowerShell or Bash',
      'type: feedback',
      'originSessionId: 73558073-081c-444b-95d7-35fc3edb6bb3',
      '---',
      'Never execute git commands.',
      '',
    ].join('\n');
    const parsed = parseFrontmatter(text);
    expect(parsed.variant).toBe('flat');
    expect(parsed.error).toBeNull();
    expect(frontmatterField(parsed.data, 'name')).toBe('Never execute git commands');
    expect(frontmatterField(parsed.data, 'type')).toBe('feedback');
    expect(frontmatterField(parsed.data, 'originSessionId')).toBe('73558073-081c-444b-95d7-35fc3edb6bb3');
    expect(text.slice(parsed.bodyStart)).toBe('Never execute git commands.\n');
    expect(text.slice(parsed.innerStart, parsed.innerEnd)).toBe(text.split('\n').slice(1, 5).join('\n') + '\n');
  });

  it('nested with node_type (CC ≥ 2.1.146; trailing space after metadata:)', () => {
    const text =
      '---\nname: feedback-tests-no-gitignored-data\ndescription: Committed tests must not read from the gitignored data/ folder\nmetadata: \n  node_type: memory\n  type: feedback\n  originSessionId: 0d9c1a8e-1111-4222-8333-444455556666\n  status: active\n---\nBody\n';
    const parsed = parseFrontmatter(text);
    expect(parsed.variant).toBe('nested-node-type');
    expect(frontmatterField(parsed.data, 'type')).toBe('feedback');
    expect(frontmatterField(parsed.data, 'originSessionId')).toBe('0d9c1a8e-1111-4222-8333-444455556666');
    expect(frontmatterField(parsed.data, 'status')).toBe('active');
    expect(frontmatterField(parsed.data, 'name')).toBe('feedback-tests-no-gitignored-data');
  });

  it('nested without node_type', () => {
    const parsed = parseFrontmatter('---\nname: DOM probing\ndescription: How to probe\nmetadata:\n  type: project\n---\n');
    expect(parsed.variant).toBe('nested');
    expect(frontmatterField(parsed.data, 'type')).toBe('project');
  });

  it.each(['flat', 'nested', 'nested-node-type'] as const)('the fixture builder writes %s frontmatter the parser recognises', (variant) => {
    const parsed = parseFrontmatter(topicFile({ variant, name: 'n', description: 'd', type: 'reference', originSessionId: 'abc' }));
    expect(parsed.variant).toBe(variant);
    expect(frontmatterField(parsed.data, 'type')).toBe('reference');
    expect(frontmatterField(parsed.data, 'originSessionId')).toBe('abc');
  });

  it('the flat field wins over the nested one', () => {
    const parsed = parseFrontmatter('---\ntype: user\nmetadata:\n  type: project\n---\n');
    expect(frontmatterField(parsed.data, 'type')).toBe('user');
  });

  it('no frontmatter at all', () => {
    const parsed = parseFrontmatter('# Just markdown\n\n---\nnot: frontmatter\n---\n');
    expect(parsed).toMatchObject({ variant: 'none', data: {}, bodyStart: 0, error: null });
  });

  it('handles CRLF line ends and a BOM', () => {
    const crlf = parseFrontmatter('---\r\nname: x\r\ntype: user\r\n---\r\nbody');
    expect(crlf.variant).toBe('flat');
    expect(frontmatterField(crlf.data, 'type')).toBe('user');
    const bom = parseFrontmatter('\uFEFF---\nname: y\n---\n');
    expect(frontmatterField(bom.data, 'name')).toBe('y');
  });

  it('an empty block is flat with no fields; ---yaml is accepted', () => {
    expect(parseFrontmatter('---\n---\nbody')).toMatchObject({ variant: 'flat', data: {}, error: null });
    expect(frontmatterField(parseFrontmatter('---yaml\nname: z\n---\n').data, 'name')).toBe('z');
  });

  it('numbers are read as strings; objects and lists are not strings', () => {
    const parsed = parseFrontmatter('---\nname: 42\ndescription: [a, b]\n---\n');
    expect(frontmatterField(parsed.data, 'name')).toBe('42');
    expect(frontmatterField(parsed.data, 'description')).toBeNull();
  });

  it('only own keys count: inherited Object.prototype members are never fields', () => {
    const parsed = parseFrontmatter('---\nname: x\n---\n');
    expect(frontmatterField(parsed.data, 'constructor')).toBeNull();
    expect(frontmatterField(parsed.data, 'toString')).toBeNull();
    expect(frontmatterField(parsed.data, 'hasOwnProperty')).toBeNull();
  });
});

describe('parseFrontmatter: hostile and broken input', () => {
  it.each(['js', 'javascript', 'JS', 'coffee', 'ts', 'eval'])('refuses ---%s and NEVER evaluates it', (language) => {
    globalThis.__ccmemFrontmatterCanary = undefined;
    const text = `---${language}\n(globalThis.__ccmemFrontmatterCanary = 'ran', { name: 'evil', type: 'user' })\n---\nbody\n`;
    const parsed = parseFrontmatter(text);
    expect(parsed.variant).toBe('executable');
    expect(parsed.data).toEqual({});
    expect(parsed.error).toMatch(/refused/);
    expect(globalThis.__ccmemFrontmatterCanary).toBeUndefined();
    expect(text.slice(parsed.bodyStart)).toBe('body\n');
  });

  it('does not run YAML !!js tags either', () => {
    globalThis.__ccmemFrontmatterCanary = undefined;
    const parsed = parseFrontmatter('---\nname: !!js/function "function () { globalThis.__ccmemFrontmatterCanary = 1 }"\n---\n');
    expect(globalThis.__ccmemFrontmatterCanary).toBeUndefined();
    expect(typeof parsed.data.name === 'function').toBe(false);
  });

  it('refuses other languages without parsing', () => {
    expect(parseFrontmatter('---toml\nname = "x"\n---\n')).toMatchObject({ variant: 'invalid', data: {}, language: 'toml' });
  });

  it('a YAML alias bomb ("billion laughs") returns fast with an error', () => {
    const lines = ['---', 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    const names = 'abcdefghij';
    for (let i = 1; i < names.length; i++) {
      const prev = names[i - 1];
      lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    lines.push('---', 'body');
    const started = performance.now();
    const parsed = parseFrontmatter(lines.join('\n'));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(parsed.variant).toBe('invalid');
    expect(parsed.error).toMatch(/not valid YAML/);
  });

  it('deeply nested flow collections do not crash', () => {
    const started = performance.now();
    const parsed = parseFrontmatter(`---\nx: ${'['.repeat(30_000)}\n---\n`);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(parsed.variant).toBe('invalid');
  });

  it('an oversized block is refused without parsing', () => {
    const parsed = parseFrontmatter(`---\nname: x\ndescription: ${'d'.repeat(MAX_FRONTMATTER_CHARS)}\n---\n`);
    expect(parsed.variant).toBe('invalid');
    expect(parsed.data).toEqual({});
    expect(parsed.error).toMatch(/larger than/);
  });

  it('an unclosed block is invalid', () => {
    const parsed = parseFrontmatter('---\nname: x\nno closing fence\n');
    expect(parsed.variant).toBe('invalid');
    expect(parsed.error).toMatch(/never closed/);
  });

  it('a block that is not a mapping is invalid', () => {
    expect(parseFrontmatter('---\n- a\n- b\n---\n').variant).toBe('invalid');
    expect(parseFrontmatter('---\njust a string\n---\n').variant).toBe('invalid');
  });

  it('invalid YAML falls back to a line scan that still finds flat and nested fields', () => {
    const parsed = parseFrontmatter(
      '---\nname: "Quoted name"\ndescription: Use this: never that\nmetadata:\n  type: feedback\n  originSessionId: abc-123\n---\nBody\n',
    );
    expect(parsed.variant).toBe('invalid');
    expect(parsed.error).toMatch(/not valid YAML/);
    expect(frontmatterField(parsed.data, 'name')).toBe('Quoted name');
    expect(frontmatterField(parsed.data, 'description')).toBe('Use this: never that');
    expect(frontmatterField(parsed.data, 'type')).toBe('feedback');
    expect(frontmatterField(parsed.data, 'originSessionId')).toBe('abc-123');
  });

  it('a __proto__ key never pollutes Object.prototype (valid YAML and line-scan fallback)', () => {
    const valid = parseFrontmatter('---\n__proto__:\n  polluted: yes\nname: x\n---\n');
    const broken = parseFrontmatter('---\n__proto__:\n  polluted: yes\nname: x: y\n---\n');
    const brokenFlat = parseFrontmatter('---\n__proto__: polluted\nconstructor: bad\nname: a: b\n---\n');
    for (const parsed of [valid, broken, brokenFlat]) {
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
      expect(frontmatterField(parsed.data, 'polluted')).toBeNull();
    }
    expect(frontmatterField(valid.data, 'name')).toBe('x');
    expect(frontmatterField(broken.data, 'name')).toBe('x: y');
    expect({}.constructor).toBe(Object);
  });
});
