import { describe, expect, it } from 'vitest';
import { parseLimitedYaml as yaml } from '../../../../electron/core/memory/frontmatter';
import { simpleFrontmatter } from '../../../../electron/core/memory/simpleFrontmatter';

/** Values on both sides of every rule: strings YAML keeps as they are, and look-alikes it reads otherwise. */
const VALUES = [
  'Never execute git commands',
  'feedback',
  '73558073-081c-444b-95d7-35fc3edb6bb3',
  'a7ca59a1-f3b0-4a31-bc08-05ce788dd902',
  '2026-11-26',
  '1st place, then [brackets] {braces} and, commas',
  'say "hi" and it\'s fine',
  'x & y * z ! | > % @ ` \\ ~',
  'ends with spaces   ',
  'Ünïcode wörds 漢字 and → arrows',
  'yes',
  'no',
  'on',
  '0x',
  '0o8',
  '1.2.3',
  '1e',
  'null',
  'Null',
  'true',
  'FALSE',
  '123',
  '0x1F',
  '0o17',
  '1.5',
  '1.',
  '1e5',
  '2E-3',
  'key: value',
  'a:b',
  'text # comment',
  'text#hash',
  '"quoted"',
  "'single'",
  '&anchor value',
  '*alias',
  '!tag value',
  '|',
  '>',
  '[a, b]',
  '{a: b}',
  '- item',
  '~',
  '.inf',
  '-5',
  '+5',
  'tab\there',
  'nel\u0085here',
  'line\u2028separator',
  'astral 😀',
  '',
];

const KEYS = ['name', 'description', 'type', 'originSessionId', 'node_type', 'x-y', 'true', 'null', '123', '_private', '__proto__'];

describe('the frontmatter read without the YAML parser', () => {
  it('agrees with the parser on every block it reads, and leaves every other block to it', () => {
    let read = 0;
    const blocks: string[] = [];
    for (const key of KEYS) for (const value of VALUES) blocks.push(`${key}: ${value}\n`);
    for (const value of VALUES) blocks.push(`name: Notes\ndescription: ${value}\ntype: project\n`);
    blocks.push(
      'name: a\r\ndescription: b\r\n',
      'name: a\n\ndescription: b\n',
      'name: a\nname: b\n',
      'name: a\n  continued\n',
      'name: a\nmetadata:\n  type: user\n',
      'name:a\n',
      'name:\tvalue\n',
      'name:    spaced    \n',
      '# comment\nname: a\n',
      'name: a\n...\n',
      '%YAML 1.2\nname: a\n',
      '',
      '\n\n',
    );
    for (const block of blocks) {
      const simple = simpleFrontmatter(block);
      if (simple === null) continue;
      read++;
      expect({ block, data: simple }).toEqual({ block, data: yaml(block) });
    }
    // Many blocks of the list are read directly (the rest prove the parser is asked whenever it would differ).
    expect(read).toBeGreaterThan(blocks.length / 10);
    expect(read).toBeLessThan(blocks.length);
  });

  it('reads the shape Claude Code writes, and refuses what YAML would not read as plain strings', () => {
    expect(simpleFrontmatter('name: Notes\ndescription: What the user prefers\ntype: feedback\noriginSessionId: 3b5c0d1e-0000\n')).toEqual({
      name: 'Notes',
      description: 'What the user prefers',
      type: 'feedback',
      originSessionId: '3b5c0d1e-0000',
    });
    for (const block of [
      'type: 123\n',
      'name: true\n',
      'name: a: b\n',
      'name: "a"\n',
      'name: a\nname: b\n',
      'metadata:\n  type: user\n',
      '__proto__: x\n',
    ])
      expect(simpleFrontmatter(block)).toBeNull();
  });
});
