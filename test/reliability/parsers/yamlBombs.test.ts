import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HomeService } from '../../../electron/core/home/HomeService';
import { MAX_FRONTMATTER_CHARS, parseFrontmatter } from '../../../electron/core/memory/frontmatter';
import { createScenarioHome } from '../../fixtures/scenarioHome';
import { recordFigure } from '../support/figureLog';
import { listMemoryFiles } from '../../../electron/core/memory/memoryFolderListing';

/**
 * A bomb that is not refused hangs the app or fills its memory; this bound only tells a refusal from a
 * hang (every bomb here is refused in well under a tenth of it on this machine). Speed figures live in bench/.
 */
const HANG_GUARD_MS = 3_000;

/** Whatever survives parsing must stay small: a refused bomb leaves no expansion behind. */
const MAX_RESULT_CHARS = 4 * MAX_FRONTMATTER_CHARS;

function billionLaughs(levels: number, width: number): string {
  const lines = [`l0: &l0 [${Array(width).fill('"lol"').join(', ')}]`];
  for (let level = 1; level < levels; level++)
    lines.push(
      `l${level}: &l${level} [${Array(width)
        .fill(`*l${level - 1}`)
        .join(', ')}]`,
    );
  return lines.join('\n');
}

/** Each of these expands to gigabytes or recurses without end when a parser trusts it. */
const bombs: Readonly<Record<string, string>> = {
  'billion laughs (9 × 9)': billionLaughs(9, 9),
  'billion laughs, wide (4 × 200)': billionLaughs(4, 200),
  'merge-key fan-out': `base: &b {a: 1, b: 2}\n${Array.from({ length: 2_000 }, (_, i) => `k${i}: {<<: *b}`).join('\n')}`,
  'alias of an alias chain': `a0: &a0 x\n${Array.from({ length: 200 }, (_, i) => `a${i + 1}: &a${i + 1} [*a${i}, *a${i}]`).join('\n')}`,
  'deep flow sequence': `x: ${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  'deep flow sequence, never closed': `x: ${'['.repeat(30_000)}`,
  'deep flow mapping': `x: ${'{a: '.repeat(8_000)}1${'}'.repeat(8_000)}`,
  'deep block nesting': Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n'),
  'oversized block': `x: ${'a'.repeat(MAX_FRONTMATTER_CHARS + 10)}`,
  'compact mapping storm': `d: ${'a: '.repeat(15_000)}`,
  'many keys': Array.from({ length: 5_000 }, (_, i) => `k${i}: v`).join('\n'),
  'anchor flood': Array.from({ length: 3_000 }, (_, i) => `k${i}: &a${i} v`).join('\n'),
  'recursive alias': 'a: &a [*a]',
  'self-merge': 'a: &a {<<: *a}',
};

function asMemoryFile(inner: string): string {
  return `---\n${inner}\n---\nbody\n`;
}

describe('YAML bombs', () => {
  it('refuses every bomb quickly and keeps nothing of its expansion', () => {
    const outcomes = Object.entries(bombs).map(([name, inner]) => {
      const started = performance.now();
      let threw: unknown = null;
      let resultChars = 0;
      let variant = '';
      try {
        const parsed = parseFrontmatter(asMemoryFile(inner));
        resultChars = JSON.stringify(parsed.data).length;
        variant = parsed.variant;
      } catch (error) {
        threw = error;
      }
      return { name, ms: performance.now() - started, threw, resultChars, variant };
    });
    recordFigure('badInputs', { tried: outcomes.length }, 'parsers');
    for (const outcome of outcomes) {
      expect(outcome.threw, outcome.name).toBeNull();
      expect(outcome.ms, `${outcome.name} took ${outcome.ms.toFixed(0)} ms`).toBeLessThan(HANG_GUARD_MS);
      expect(outcome.resultChars, outcome.name).toBeLessThan(MAX_RESULT_CHARS);
    }
    // The alias bombs in particular must be refused, not half-expanded.
    for (const name of ['billion laughs (9 × 9)', 'billion laughs, wide (4 × 200)', 'merge-key fan-out', 'alias of an alias chain']) {
      expect(outcomes.find((o) => o.name === name)?.variant, name).toBe('invalid');
    }
  });

  it('lists a memory folder full of bombs with a warning on each refused file', async () => {
    const home = await createScenarioHome({ prefix: 'ccmem-yaml-bombs-' });
    try {
      const project = home.project(home.workPath('bombed'));
      await project.session({ turns: 1 });
      const names = Object.keys(bombs);
      for (const [index, name] of names.entries()) await project.memory(`bomb_${index}.md`, asMemoryFile(bombs[name]));
      const service = new HomeService({
        roots: [{ path: home.root, source: 'CLAUDE_CONFIG_DIR' }],
        dataDir: join(home.tmp, 'data'),
        demoHomeSource: null,
        shell: 'cli',
        readOnly: true,
      });
      const started = performance.now();
      const listing = await listMemoryFiles(service, { configRoot: home.root, slug: project.slug });
      recordFigure('badInputs', { tried: names.length }, 'parsers');
      expect(performance.now() - started).toBeLessThan(HANG_GUARD_MS * 2);
      expect(listing.files).toHaveLength(names.length);
      for (const file of listing.files.filter((f) => f.variant === 'invalid')) {
        expect(file.warnings.map((w) => w.code)).toContain('frontmatter-invalid');
      }
      expect(listing.files.filter((f) => f.variant === 'invalid').length).toBeGreaterThanOrEqual(4);
    } finally {
      await home.cleanup();
    }
  });
});
