import { describe, expect, it } from 'vitest';
import { curesFor, retargetCandidate, summarizeFixes } from '../../../../../shared/memory/fixes/fixCatalog';
import { filesNeeded, planFixes, type FixFileHeader, type FixInput } from '../../../../../shared/memory/fixes/fixPlanner';
import { suggestDescription, suggestName, suggestType } from '../../../../../shared/memory/fixes/frontmatterFixes';
import { mergedText } from '../../../../../shared/memory/fixes/duplicateMerge';
import type { MemoryFix } from '../../../../../shared/memory/fixes/memoryFix';
import type { MemoryFinding } from '../../../../../shared/memory/findings';
import type { SecretSpan } from '../../../../../shared/memory/secretMask';

const NO_HEADER: FixFileHeader = { name: null, description: null, type: null, rawType: null };

function input(texts: Record<string, string | null>, extra: Partial<FixInput> = {}): FixInput {
  return {
    folderKind: 'project',
    texts: new Map(Object.entries(texts)),
    existing: new Set(Object.entries(texts).flatMap(([path, text]) => (text === null ? [] : [path]))),
    headers: new Map(),
    dates: new Map(),
    secretSpans: new Map(),
    ...extra,
  };
}

const plan = (data: FixInput, fixes: MemoryFix[]) => planFixes(data, fixes);
const after = (result: ReturnType<typeof planFixes>, path: string) => result.changes.get(path);

const TOKEN = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';

describe('frontmatter cures', () => {
  const flat =
    '---\r\nname: Deploys\r\n# who decides\r\ntype: project\r\n---\r\n\r\n# Deploys\r\n\r\nWe deploy on **Tuesdays** only. Never on Fridays.\r\n';

  it('fill a missing description with the first sentence, in place, keeping comments and CRLF', () => {
    const result = plan(input({ 'deploys.md': flat }), [{ kind: 'fill-description', file: 'deploys.md' }]);
    expect(result.fixes[0]).toEqual({ kind: 'fill-description', file: 'deploys.md', value: 'We deploy on Tuesdays only.' });
    expect(after(result, 'deploys.md')).toBe(
      flat.replace('type: project\r\n', 'type: project\r\ndescription: We deploy on Tuesdays only.\r\n'),
    );
  });

  it('set a type under metadata in the nested layout, and a chosen value wins over the guess', () => {
    const nested = '---\nname: a\ndescription: b\nmetadata:\n  type: misc\n  origin: x\n---\nBody\n';
    const headers = new Map([['notes/user_tabs.md', { ...NO_HEADER, rawType: 'misc' }]]);
    const guessed = plan(input({ 'notes/user_tabs.md': nested }, { headers }), [{ kind: 'fill-type', file: 'notes/user_tabs.md' }]);
    expect(guessed.fixes[0]).toEqual({ kind: 'fill-type', file: 'notes/user_tabs.md', value: 'user' });
    expect(after(guessed, 'notes/user_tabs.md')).toBe(nested.replace('  type: misc', '  type: user'));
    const chosen = plan(input({ 'notes/user_tabs.md': nested }, { headers }), [
      { kind: 'fill-type', file: 'notes/user_tabs.md', value: 'reference' },
    ]);
    expect(after(chosen, 'notes/user_tabs.md')).toBe(nested.replace('  type: misc', '  type: reference'));
  });

  it('add frontmatter to a file without any, only the fields it lacks, and refuse an empty value', () => {
    const bare = '\uFEFF# Grafana\n\nDashboards live at grafana.internal/d/shop.\n';
    const result = plan(input({ 'reference/grafana.md': bare }), [{ kind: 'add-frontmatter', file: 'reference/grafana.md' }]);
    expect(after(result, 'reference/grafana.md')).toBe(
      '\uFEFF---\nname: Grafana\ndescription: Dashboards live at grafana.internal/d/shop.\ntype: reference\n---\n# Grafana\n\nDashboards live at grafana.internal/d/shop.\n',
    );
    const empty = plan(input({ 'a.md': bare }), [{ kind: 'fill-description', file: 'a.md', value: ' ' }]);
    expect(empty.outcomes[0]).toMatchObject({ applied: false, note: 'Each value must be one line, and not empty' });
    expect(empty.changes.size).toBe(0);
    const described = plan(input({ 'a.md': flat }, { headers: new Map([['a.md', { ...NO_HEADER, description: 'x' }]]) }), [
      { kind: 'fill-description', file: 'a.md' },
    ]);
    expect(described.outcomes[0]).toMatchObject({ applied: false, note: 'a.md already has a description' });
  });

  it('suggest names, descriptions and types from the text and the file name', () => {
    expect(suggestDescription('x.md', '---\na: b\n---\n- Use `pnpm` — see [docs](http://x).\n')).toBe('Use pnpm — see docs.');
    expect(suggestDescription('feedback_no_force.md', '')).toBe('feedback no force');
    expect(suggestName('x.md', '## The *Title*\ntext')).toBe('The Title');
    expect(suggestType('feedback_no_force.md', null)).toBe('feedback');
    expect(suggestType('reference/dash.md', null)).toBe('reference');
    expect(suggestType('misc.md', 'Preferences')).toBe('user');
    expect(suggestType('misc.md', null)).toBe('project');
  });
});

describe('index cures through the planner', () => {
  const index = '# Memory\n- [A](a.md) — a\n- [Old](old.md) — gone\n';

  it('add the pointer of an orphan at the end of its own index, titled and hooked from its frontmatter', () => {
    const headers = new Map([['team/conv.md', { ...NO_HEADER, name: 'Conventions', description: 'Branch prefixes' }]]);
    const result = plan(input({ 'MEMORY.md': index, 'team/MEMORY.md': null, 'team/conv.md': 'x' }, { headers }), [
      { kind: 'add-pointer', file: 'team/conv.md' },
    ]);
    expect([...result.changes]).toEqual([['team/MEMORY.md', '- [Conventions](conv.md) — Branch prefixes\n']]);
    const again = plan(input({ 'MEMORY.md': index, 'a.md': 'x' }), [{ kind: 'add-pointer', file: 'a.md' }]);
    expect(again.outcomes[0]).toMatchObject({ applied: false, note: 'MEMORY.md already points at a.md' });
  });

  it('remove or retarget dangling links, refusing a target that does not exist', () => {
    const texts = { 'MEMORY.md': index, 'archive/old.md': 'x' };
    expect(after(plan(input(texts), [{ kind: 'remove-pointer', index: 'MEMORY.md', line: 3, target: 'old.md' }]), 'MEMORY.md')).toBe(
      '# Memory\n- [A](a.md) — a\n',
    );
    expect(
      after(
        plan(input(texts), [{ kind: 'retarget-pointer', index: 'MEMORY.md', line: 3, target: 'old.md', to: 'archive/old.md' }]),
        'MEMORY.md',
      ),
    ).toBe('# Memory\n- [A](a.md) — a\n- [Old](archive/old.md) — gone\n');
    const nowhere = plan(input(texts), [{ kind: 'retarget-pointer', index: 'MEMORY.md', line: 3, target: 'old.md', to: 'nope.md' }]);
    expect(nowhere.outcomes[0]).toMatchObject({ applied: false, note: 'nope.md does not exist' });
  });

  it('find the file a dangling link meant', () => {
    const files = ['archive/old.md', 'feedback_no_force_push.md', 'user-prefers-pnpm.md', 'a.md', 'b.md'];
    expect(retargetCandidate('old.md', files)).toBe('archive/old.md');
    expect(retargetCandidate('user_prefers_pnpm.md', files)).toBe('user-prefers-pnpm.md');
    expect(retargetCandidate('feedback_no_forse_push.md', files)).toBe('feedback_no_force_push.md');
    expect(retargetCandidate('c.md', files)).toBeNull();
  });
});

describe('secret cures', () => {
  const text = `---\nname: deploy\n---\nDeploy token: ${TOKEN} (rotate monthly)\nOther line\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----\nend\n`;
  const tokenStart = text.indexOf(TOKEN);
  const keyStart = text.indexOf('-----BEGIN');
  const keyEnd = text.indexOf('-----\nend') + 5;
  const spans: SecretSpan[] = [
    { start: tokenStart, end: tokenStart + TOKEN.length },
    { start: keyStart, end: keyEnd },
  ];
  const data = input({ 'deploy.md': text }, { secretSpans: new Map([['deploy.md', spans]]) });

  it('mask the secret on a line, leaving the rest of it', () => {
    const result = plan(data, [{ kind: 'mask-secret', file: 'deploy.md', line: 4 }]);
    expect(after(result, 'deploy.md')).toBe(text.replace(TOKEN, '[REDACTED]'));
  });

  it('remove the line of a secret, and every line of a key block', () => {
    expect(after(plan(data, [{ kind: 'remove-secret-line', file: 'deploy.md', line: 4 }]), 'deploy.md')).toBe(
      text.replace(`Deploy token: ${TOKEN} (rotate monthly)\n`, ''),
    );
    expect(after(plan(data, [{ kind: 'remove-secret-line', file: 'deploy.md', line: 6 }]), 'deploy.md')).toBe(
      `---\nname: deploy\n---\nDeploy token: ${TOKEN} (rotate monthly)\nOther line\nend\n`,
    );
    expect(plan(data, [{ kind: 'mask-secret', file: 'deploy.md', line: 5 }]).outcomes[0]).toMatchObject({
      applied: false,
      note: 'No secret was found on line 5 of deploy.md',
    });
  });

  it('land together with other place-based cures of the same file, all against the text as found', () => {
    const dated = `${text}Rotated yesterday.\n`;
    const both = plan(
      input({ 'deploy.md': dated }, { secretSpans: new Map([['deploy.md', spans]]), dates: new Map([['deploy.md', '2026-05-13']]) }),
      [
        { kind: 'absolute-date', file: 'deploy.md', line: 10 },
        { kind: 'remove-secret-line', file: 'deploy.md', line: 6 },
        { kind: 'mask-secret', file: 'deploy.md', line: 4 },
        { kind: 'remove-secret-line', file: 'deploy.md', line: 4 },
      ],
    );
    expect(after(both, 'deploy.md')).toBe(
      `---\nname: deploy\n---\nDeploy token: [REDACTED] (rotate monthly)\nOther line\nend\nRotated 2026-05-12.\n`,
    );
    expect(both.fixes[0]).toEqual({ kind: 'absolute-date', file: 'deploy.md', line: 10, date: '2026-05-13' });
    expect(both.outcomes.map((o) => o.applied)).toEqual([true, true, true, false]);
    expect(both.outcomes[3].note).toBe('Another fix already changes that place in deploy.md');
  });
});

describe('merging near-duplicates', () => {
  const keep = '---\nname: Flaky tests\ntype: project\n---\n# Flaky tests\n\n- cart total depends on the wall clock\n';
  const drop =
    '---\nname: Flaky suites\ndescription: Known flaky suites\ntype: project\n---\n# Flaky suites\n\n- cart total depends on the wall clock\n\n- search index test races the indexer\n';
  const index = '- [Flaky tests](flaky.md) — x\n- [Flaky suites](flaky2.md) — y\n- [Other](o.md)\n';

  it('carry over only the paragraphs the kept file lacks', () => {
    expect(mergedText(keep, drop)).toBe(`${keep}\n- search index test races the indexer\n`);
    expect(mergedText(keep, keep)).toBe(keep);
  });

  it('delete the dropped file, fill the kept one’s missing description, and drop its pointer when the kept one has one', () => {
    const headers = new Map([
      ['flaky.md', { ...NO_HEADER, name: 'Flaky tests', type: 'project' as const }],
      ['flaky2.md', { ...NO_HEADER, name: 'Flaky suites', description: 'Known flaky suites', type: 'project' as const }],
    ]);
    const result = plan(input({ 'MEMORY.md': index, 'team/MEMORY.md': null, 'flaky.md': keep, 'flaky2.md': drop }, { headers }), [
      { kind: 'merge-duplicates', keep: 'flaky.md', drop: 'flaky2.md' },
    ]);
    expect(after(result, 'flaky2.md')).toBeNull();
    expect(after(result, 'flaky.md')).toBe(
      '---\nname: Flaky tests\ntype: project\ndescription: Known flaky suites\n---\n# Flaky tests\n\n- cart total depends on the wall clock\n\n- search index test races the indexer\n',
    );
    expect(after(result, 'MEMORY.md')).toBe('- [Flaky tests](flaky.md) — x\n- [Other](o.md)\n');
  });

  it('retarget the dropped file’s pointer when the kept one has none, and refuse to mix team and private memory', () => {
    const lone = '- [Flaky suites](flaky2.md) — y\n';
    const result = plan(input({ 'MEMORY.md': lone, 'flaky.md': keep, 'flaky2.md': drop }), [
      { kind: 'merge-duplicates', keep: 'flaky.md', drop: 'flaky2.md' },
    ]);
    expect(after(result, 'MEMORY.md')).toBe('- [Flaky suites](flaky.md) — y\n');
    const mixed = plan(input({ 'MEMORY.md': lone, 'team/a.md': keep, 'flaky2.md': drop }), [
      { kind: 'merge-duplicates', keep: 'team/a.md', drop: 'flaky2.md' },
    ]);
    expect(mixed.changes.size).toBe(0);
    expect(mixed.outcomes[0].note).toMatch(/team memory and the other private/);
  });
});

describe('pruning in bulk and the overflow after it', () => {
  it('prunes many files with their pointers as one set of changes', () => {
    const names = Array.from({ length: 42 }, (_, i) => `old_${i}.md`);
    const index = `# Memory\n${names.map((n) => `- [${n}](${n}) — old`).join('\n')}\n- [Keep](keep.md) — stays\n`;
    const texts = Object.fromEntries([
      ['MEMORY.md', index],
      ['team/MEMORY.md', null],
      ['keep.md', 'k'],
      ...names.map((n) => [n, `${n}\n`]),
    ]);
    const result = plan(
      input(texts),
      names.map((file) => ({ kind: 'prune', file })),
    );
    expect(result.outcomes.every((o) => o.applied)).toBe(true);
    expect(after(result, 'MEMORY.md')).toBe('# Memory\n- [Keep](keep.md) — stays\n');
    expect(names.every((n) => result.changes.get(n) === null)).toBe(true);
    expect(result.changes.size).toBe(43);
    expect(summarizeFixes(result.fixes)).toBe('Pruned 42 files');
  });

  it('names the files it needs, indexes included', () => {
    expect(
      filesNeeded('project', [
        { kind: 'prune', file: 'a.md' },
        { kind: 'merge-duplicates', keep: 'b.md', drop: 'c.md' },
        { kind: 'move-overflow', index: 'team/MEMORY.md', into: 'team/x.md' },
      ]).sort(),
    ).toEqual(['MEMORY.md', 'a.md', 'b.md', 'c.md', 'team/MEMORY.md', 'team/x.md']);
    expect(filesNeeded('agent', [])).toEqual(['MEMORY.md']);
  });

  it('chooses the overflow file’s name and moves what does not load into it', () => {
    const lines = Array.from({ length: 205 }, (_, i) => `- [N${i}](n${i}.md)`);
    const result = plan(input({ 'MEMORY.md': `${lines.join('\n')}\n`, 'memory_overflow.md': 'taken' }), [
      { kind: 'move-overflow', index: 'MEMORY.md' },
    ]);
    expect(result.fixes[0]).toEqual({ kind: 'move-overflow', index: 'MEMORY.md', into: 'memory_overflow_2.md' });
    expect(after(result, 'memory_overflow_2.md')).toContain(`${lines.slice(199).join('\n')}\n`);
    expect(after(result, 'MEMORY.md')?.split('\n')).toHaveLength(201);
  });
});

describe('the cures each finding offers', () => {
  const finding = (code: MemoryFinding['code'], extra: Partial<MemoryFinding> = {}): MemoryFinding => ({
    code,
    severity: 'warn',
    file: 'a.md',
    line: 3,
    message: '',
    related: null,
    ...extra,
  });

  it('offers one-click fixes and reviewed proposals, and nothing where a person must decide', () => {
    expect(curesFor(finding('index.orphan'), []).map((c) => c.fix)).toEqual([{ kind: 'add-pointer', file: 'a.md' }]);
    const dangling = curesFor(finding('index.dangling-link', { file: 'MEMORY.md', related: 'old.md' }), ['archive/old.md']);
    expect(dangling.map((c) => c.label)).toEqual(['Remove the link', 'Point it at archive/old.md']);
    expect(curesFor(finding('index.over-lines', { file: 'MEMORY.md' }), []).every((c) => c.proposal)).toBe(true);
    expect(curesFor(finding('duplicate.near', { related: 'b.md' }), [])[0].fix).toEqual({
      kind: 'merge-duplicates',
      keep: 'a.md',
      drop: 'b.md',
    });
    expect(curesFor(finding('secret.detected'), []).map((c) => c.fix.kind)).toEqual(['mask-secret', 'remove-secret-line']);
    expect(curesFor(finding('index.not-an-index'), [])).toEqual([]);
    expect(curesFor(finding('stale.missing-path'), [])).toEqual([]);
  });
});
