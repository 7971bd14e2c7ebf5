import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { memoryFile, TranscriptBuilder } from './provenanceFixtures';
import { ccmem } from '../../helpers/ccmem';

/** The documented schema of `ccmem blame --json`. */
const blameJsonSchema = z.strictObject({
  path: z.string(),
  lines: z.array(
    z.strictObject({
      line: z.number().int().positive(),
      text: z.string(),
      version: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .nullable(),
      time: z.iso.datetime().nullable(),
      cause: z.enum(['app-edit', 'session', 'extraction', 'dream', 'external']).nullable(),
      sessionId: z.string().nullable(),
      turnUuid: z.string().nullable(),
      certainty: z.enum(['exact', 'inferred']),
    }),
  ),
});

const sid = (name: string) => seededUuid(`cli-provenance:${name}`);
const at = (seconds: number) => new Date(Date.parse('2026-09-01T09:00:00.000Z') + seconds * 1000);

describe('ccmem history and blame on a home with months of sessions and no history yet', () => {
  let home: ScenarioHome;
  let env: NodeJS.ProcessEnv;
  let slug: string;
  let agentDir: string;
  const turns: Record<string, string> = {};

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-cli-provenance-' });
    const projectPath = home.workPath('shop');
    const project = home.project(projectPath);
    slug = project.slug;
    agentDir = await home.agentMemory('user', 'reviewer', {});
    const notes = join(project.memoryDir, 'project_notes.md');
    const reviewer = join(agentDir, 'MEMORY.md');
    const one = new TranscriptBuilder({ file: join(project.dir, `${sid('one')}.jsonl`), sessionId: sid('one'), cwd: projectPath });
    turns.one = one.typed(at(0), 'Start notes');
    one.write(at(1), notes, '# Notes\n\n- ship on Friday\n');
    await one.flush(at(1));
    const two = new TranscriptBuilder({ file: join(project.dir, `${sid('two')}.jsonl`), sessionId: sid('two'), cwd: projectPath });
    turns.two = two.typed(at(86_400), 'Move it');
    two.edit(at(86_401), notes, '- ship on Friday', '- ship on Monday\n- owner: Sam', null);
    await two.flush(at(86_401));
    const sub = new TranscriptBuilder({
      file: join(project.dir, sid('two'), 'subagents', 'agent-a0000000000000001.jsonl'),
      sessionId: sid('two'),
      cwd: projectPath,
      agentId: 'a0000000000000001',
    });
    sub.typed(at(86_402), 'Review it');
    sub.write(at(86_403), reviewer, '# Reviewer\n\n- asks for tests\n');
    await sub.flush(at(86_403));
    await memoryFile(notes, '# Notes\n\n- ship on Monday\n- owner: Sam\n', at(86_401));
    await memoryFile(reviewer, '# Reviewer\n\n- asks for tests\n', at(86_403));
    env = { HOME: home.tmp, CLAUDE_CONFIG_DIR: home.root, CCMEM_DATA_DIR: join(home.tmp, 'data') };
  });
  afterAll(() => home.cleanup());

  it('history --json on a fresh data folder lists the reconstructed change sets with their turn and certainty', async () => {
    const before = await snapshotTree(home.root);
    const { code, stdout, stderr } = await ccmem(['history', '--json'], env);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(await snapshotTree(home.root)).toEqual(before);
    const { changeSets } = JSON.parse(stdout) as { changeSets: Record<string, unknown>[] };
    expect(
      changeSets.map((c) => [
        c.cause,
        c.sessionId,
        c.turnUuid,
        c.reconstructed,
        (c.files as { path: string; kind: string; certainty: string }[]).map((f) => [f.path, f.kind, f.certainty]),
      ]),
    ).toEqual([
      ['session', sid('two'), turns.two, true, [['MEMORY.md', 'added', 'exact']]],
      ['session', sid('two'), turns.two, true, [['project_notes.md', 'modified', 'exact']]],
      ['session', sid('one'), turns.one, true, [['project_notes.md', 'added', 'exact']]],
    ]);
    const since = await ccmem(['history', '--json', '--since', '2026-09-02'], env);
    expect((JSON.parse(since.stdout) as { changeSets: unknown[] }).changeSets).toHaveLength(2);
    const bad = await ccmem(['history', '--since', 'yesterday-ish'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since yesterday-ish is not a date/);
    const text = await ccmem(['history', '--project', slug], env);
    expect(text.stdout).toContain('(reconstructed)');
    // Each change set names who made it once, as the History page does.
    expect(text.stdout).toContain(`Claude Code session ${sid('one')}  1 added`);
    expect(text.stdout).not.toContain('session session');
  });

  it('blame --json gives each line its version, cause, session and turn; an agent memory is named by its folder', async () => {
    const { code, stdout, stderr } = await ccmem(['blame', '--project', slug, '--file', 'project_notes.md', '--json'], env);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const blame = blameJsonSchema.parse(JSON.parse(stdout));
    expect(blame.path).toBe('project_notes.md');
    expect(blame.lines.map((l) => [l.text, l.sessionId, l.turnUuid, l.cause, l.certainty])).toEqual([
      ['# Notes', sid('one'), turns.one, 'session', 'exact'],
      ['', sid('one'), turns.one, 'session', 'exact'],
      ['- ship on Monday', sid('two'), turns.two, 'session', 'exact'],
      ['- owner: Sam', sid('two'), turns.two, 'session', 'exact'],
    ]);
    const agent = await ccmem(['blame', '--agent-dir', agentDir, '--file', 'MEMORY.md', '--json'], env);
    expect(agent.code).toBe(0);
    expect(blameJsonSchema.parse(JSON.parse(agent.stdout)).lines.map((l) => [l.text, l.sessionId])).toEqual([
      ['# Reviewer', sid('two')],
      ['', sid('two')],
      ['- asks for tests', sid('two')],
    ]);
    const plain = await ccmem(['blame', '--project', slug, '--file', 'project_notes.md'], env);
    expect(plain.stdout.split('\n')[0]).toMatch(/session \w{8}\s+2026-09-01\s+1\) # Notes$/);
  });

  it('blame explains what it needs, and a file with no history', async () => {
    expect((await ccmem(['blame', '--file', 'x.md'], env)).code).toBe(2);
    expect((await ccmem(['blame', '--project', slug, '--agent-dir', agentDir, '--file', 'x.md'], env)).code).toBe(2);
    const missing = await ccmem(['blame', '--project', slug, '--file', 'nothing_here.md'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nothing_here\.md has no history/);
  });
});
