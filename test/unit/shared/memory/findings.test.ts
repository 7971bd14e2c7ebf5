import { describe, expect, it } from 'vitest';
import { FINDING_CODES, type FindingCode } from '../../../../shared/memory/findingCodes';
import { computeFindings, type FileFacts, type FolderFacts } from '../../../../shared/memory/findings';
import { fingerprint } from '../../../../shared/memory/nearDuplicates';

const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const DAY = 86_400_000;

function file(relativePath: string, overrides: Partial<FileFacts> = {}): FileFacts {
  return {
    relativePath,
    scope: relativePath.startsWith('team/') ? 'team' : 'private',
    mtimeMs: NOW - DAY,
    readable: true,
    symlinkOutside: false,
    variant: 'flat',
    frontmatterError: null,
    description: `About ${relativePath}`,
    type: 'feedback',
    rawType: null,
    relativeDates: [],
    missingPaths: [],
    secrets: [],
    fingerprint: fingerprint(`unique words for ${relativePath} ${relativePath.split('').reverse().join('')}`),
    ...overrides,
  };
}

function folder(files: FileFacts[], overrides: Partial<FolderFacts> = {}): FolderFacts {
  const index = files.map((f) => `- [${f.relativePath}](${f.relativePath}) — hook`).join('\n');
  return {
    kind: 'project',
    files,
    indexes: [{ relativePath: 'MEMORY.md', folder: '', text: `${index}\n` }],
    existingPaths: new Set([...files.map((f) => f.relativePath), 'MEMORY.md']),
    folderSymlinkOutside: false,
    folderOutsideRoot: false,
    otherSymlinksOutside: [],
    lockHolderPid: null,
    lockLive: false,
    now: NOW,
    staleAfterDays: 30,
    ...overrides,
  };
}

const codes = (facts: FolderFacts) => computeFindings(facts).map((f) => f.code);
const clean = () => folder([file('a.md'), file('b.md')]);

/** One folder that has the finding and one that does not, for every code. */
const CASES: Record<FindingCode, { has: () => FolderFacts; lacks: () => FolderFacts }> = {
  'index.over-lines': {
    has: () => ({
      ...clean(),
      indexes: [{ relativePath: 'MEMORY.md', folder: '', text: Array.from({ length: 201 }, (_, i) => `- [x](a.md) ${i}`).join('\n') }],
    }),
    lacks: () => ({
      ...clean(),
      indexes: [
        {
          relativePath: 'MEMORY.md',
          folder: '',
          text: Array.from({ length: 200 }, () => '- [x](a.md)\n- [y](b.md)')
            .join('\n')
            .split('\n')
            .slice(0, 200)
            .join('\n'),
        },
      ],
    }),
  },
  'index.over-bytes': {
    has: () => ({ ...clean(), indexes: [{ relativePath: 'MEMORY.md', folder: '', text: `- [a](a.md) ${'x'.repeat(140)}\n`.repeat(180) }] }),
    lacks: () => ({
      ...clean(),
      indexes: [{ relativePath: 'MEMORY.md', folder: '', text: `- [a](a.md) ${'x'.repeat(130)}\n- [b](b.md)\n`.repeat(90) }],
    }),
  },
  'index.long-line': {
    has: () => ({
      ...clean(),
      indexes: [{ relativePath: 'MEMORY.md', folder: '', text: `- [a](a.md) — ${'long '.repeat(40)}\n- [b](b.md)\n` }],
    }),
    lacks: clean,
  },
  'index.dangling-link': {
    has: () => ({
      ...clean(),
      indexes: [{ relativePath: 'MEMORY.md', folder: '', text: '- [a](a.md)\n- [b](b.md)\n- [gone](gone.md)\n' }],
    }),
    lacks: clean,
  },
  'index.orphan': {
    has: () => ({ ...clean(), indexes: [{ relativePath: 'MEMORY.md', folder: '', text: '- [a](a.md)\n' }] }),
    lacks: clean,
  },
  'index.not-an-index': {
    has: () => ({
      ...clean(),
      indexes: [
        {
          relativePath: 'MEMORY.md',
          folder: '',
          text: '# Notes\nWe use pnpm.\nTests run with vitest.\nDeploys go out on Fridays.\n- [a](a.md)\n- [b](b.md)\n',
        },
      ],
    }),
    lacks: clean,
  },
  'scan.beyond-cap': {
    has: () => folder(Array.from({ length: 201 }, (_, i) => file(`f${i}.md`, { mtimeMs: NOW - i * 1000 }))),
    lacks: () => folder(Array.from({ length: 200 }, (_, i) => file(`f${i}.md`, { mtimeMs: NOW - i * 1000 }))),
  },
  'frontmatter.missing': { has: () => folder([file('a.md', { variant: 'none', description: null, type: null })]), lacks: clean },
  'frontmatter.invalid-yaml': { has: () => folder([file('a.md', { variant: 'invalid', frontmatterError: 'bad' })]), lacks: clean },
  'frontmatter.unknown-type': { has: () => folder([file('a.md', { type: null, rawType: 'memo' })]), lacks: clean },
  'frontmatter.missing-description': { has: () => folder([file('a.md', { description: '  ' })]), lacks: clean },
  'frontmatter.executable': { has: () => folder([file('a.md', { variant: 'executable', frontmatterError: 'refused' })]), lacks: clean },
  'stale.age': {
    has: () => folder([file('a.md', { type: 'project', mtimeMs: NOW - 31 * DAY })]),
    lacks: () =>
      folder([file('a.md', { type: 'project', mtimeMs: NOW - 30 * DAY }), file('b.md', { type: 'user', mtimeMs: NOW - 400 * DAY })]),
  },
  'stale.relative-date': {
    has: () => folder([file('a.md', { relativeDates: [{ line: 6, text: 'merge freeze next Thursday' }] })]),
    lacks: clean,
  },
  'stale.missing-path': {
    has: () => folder([file('a.md', { missingPaths: [{ line: 7, path: 'src/gone.ts', lineRef: 3 }] })]),
    lacks: clean,
  },
  'duplicate.near': {
    has: () => {
      const text = 'Never force push to the shared main branch because it rewrites history that teammates have already pulled';
      return folder([file('a.md', { fingerprint: fingerprint(text) }), file('b.md', { fingerprint: fingerprint(`${text} today`) })]);
    },
    lacks: clean,
  },
  'secret.detected': { has: () => folder([file('a.md', { secrets: [{ line: 4, kind: 'github', length: 40 }] })]), lacks: clean },
  'symlink.outside': { has: () => folder([file('a.md', { symlinkOutside: true, readable: false })]), lacks: clean },
  'folder.outside-root': {
    has: () => ({ ...folder([]), indexes: [], existingPaths: new Set(), folderOutsideRoot: true }),
    lacks: () => clean(),
  },
  'lock.held': {
    has: () => ({ ...clean(), lockLive: true, lockHolderPid: 4242 }),
    lacks: () => ({ ...clean(), lockLive: false, lockHolderPid: 4242 }),
  },
};

describe('computeFindings: every code', () => {
  it('covers the whole list of codes', () => {
    expect(Object.keys(CASES).sort()).toEqual([...FINDING_CODES].sort());
  });

  it.each(FINDING_CODES)('%s: found where it applies, absent where it does not', (code) => {
    expect(codes(CASES[code].has())).toContain(code);
    expect(codes(CASES[code].lacks())).not.toContain(code);
  });
});

describe('computeFindings: details', () => {
  it('a clean folder has no findings at all', () => {
    expect(computeFindings(clean())).toEqual([]);
  });

  it('raises a secret in team memory to an error and never echoes it', () => {
    const findings = computeFindings(
      folder(
        [
          file('team/t.md', { secrets: [{ line: 2, kind: 'aws', length: 20 }] }),
          file('p.md', { secrets: [{ line: 3, kind: 'slack', length: 50 }] }),
        ],
        {
          indexes: [
            { relativePath: 'MEMORY.md', folder: '', text: '- [p](p.md)\n' },
            { relativePath: 'team/MEMORY.md', folder: 'team', text: '- [t](t.md)\n' },
          ],
        },
      ),
    ).filter((f) => f.code === 'secret.detected');
    expect(findings.map((f) => [f.file, f.severity, f.line])).toEqual([
      ['p.md', 'warn', 3],
      ['team/t.md', 'error', 2],
    ]);
    expect(findings[0].message).toBe('Line 3 seems to hold a Slack token (50 characters, not shown)');
  });

  it('shows a near-duplicate pair from both sides', () => {
    const pair = computeFindings(CASES['duplicate.near'].has()).filter((f) => f.code === 'duplicate.near');
    expect(pair.map((f) => [f.file, f.related])).toEqual([
      ['a.md', 'b.md'],
      ['b.md', 'a.md'],
    ]);
  });

  it('reports an unreadable or outside file only for what can be known', () => {
    const found = computeFindings(CASES['symlink.outside'].has());
    expect(found.map((f) => f.code)).toEqual(['symlink.outside']);
  });

  it('reports index problems with their line', () => {
    const dangling = computeFindings(CASES['index.dangling-link'].has()).find((f) => f.code === 'index.dangling-link');
    expect(dangling).toMatchObject({ file: 'MEMORY.md', line: 3, severity: 'error' });
  });
});
