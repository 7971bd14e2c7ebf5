import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatchRequest } from '../../../shared/contract/dispatch';
import { textTurn, toolUseTurn } from '../../helpers/fakeAnthropicServer';
import { createJobWorld, type JobWorld } from './jobWorld';

describe('the job requests at the boundary', () => {
  let world: JobWorld;
  beforeEach(async () => {
    world = await createJobWorld();
  });
  afterEach(async () => {
    await world.cleanup();
  });
  const call = (name: string, args: unknown, readOnly = false) => dispatchRequest(world.engine.handlers, name, args, { readOnly });

  it('refuses every job and key change in a read-only shell, but still reads', async () => {
    const target = { kind: 'project', ...world.ref };
    for (const [name, args] of [
      ['startDream', { target }],
      ['startExtraction', { source: { kind: 'recent', ...world.ref, count: 1 } }],
      ['applyJob', { jobId: 'x', decisions: [] }],
      ['discardJob', { jobId: 'x' }],
      ['setApiKey', { key: 'sk-ant-xyz' }],
      ['clearApiKey', {}],
      ['updateLlmSettings', { model: 'claude-haiku-4-5' }],
    ] as const) {
      expect(await call(name, args, true)).toMatchObject({ ok: false, error: { code: 'READ_ONLY' } });
    }
    expect(await call('getDreamGate', world.ref, true)).toMatchObject({ ok: true, value: { sessionsSince: 6, lastConsolidatedAt: null } });
    expect(await call('listJobs', {}, true)).toEqual({ ok: true, value: [] });
    expect(world.fake.requests).toHaveLength(0);
  });

  it('refuses bad input with a typed error and touches nothing', async () => {
    expect(await call('getJob', { jobId: '../../etc/passwd' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await call('startDream', { target: { kind: 'project', configRoot: world.home.root, slug: '../x' } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    expect(await call('startDream', { target: { kind: 'agent', dir: '/etc' } })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await call('applyJob', { jobId: 'x', decisions: [{ path: 'a.md', decision: 'hunks', hunks: [-1] }] })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    expect(await call('startExtraction', { source: { kind: 'session', ...world.ref, sessionId: 'not-a-session' } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    expect(await call('updateLlmSettings', { maxCostUsdPerJob: -1 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const target = { kind: 'project', ...world.ref };
    expect(await call('startDream', { target, via: 'openai' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await call('testLlmConnection', { via: 'openai' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await call('updateLlmSettings', { backend: 'openai' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await call('updateLlmSettings', { claudePath: 'bin/claude' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(world.fake.requests).toHaveLength(0);
  });

  it('runs a job on the backend it names, and says what is missing when that backend cannot run', async () => {
    const target = { kind: 'project', ...world.ref };
    expect(await call('startDream', { target, via: 'claude-code' })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', message: expect.stringMatching(/^Claude Code was not found: No claude on the PATH/) },
    });
    await call('updateLlmSettings', { backend: 'claude-code' });
    expect(await call('startExtraction', { source: { kind: 'recent', ...world.ref, count: 1 } })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(await call('getLlmSettings', {})).toMatchObject({ ok: true, value: { backend: 'claude-code', effectiveBackend: null } });
    // Asking for the API by name still works with the key the environment gives.
    world.fake.enqueue(textTurn('Nothing to change.'));
    const started = await call('startDream', { target, via: 'api' });
    expect(started).toMatchObject({ ok: true, value: { via: 'api', status: 'running' } });
    const record = await world.jobs.waitForJob((started as { value: { id: string } }).value.id);
    expect(record).toMatchObject({ status: 'ready', via: 'api', summary: 'Nothing to change.' });
  });

  it('dreams over an agent memory without transcripts or a lock, and lists the job', async () => {
    const agentDir = await world.home.agentMemory('user', 'reviewer', {
      'MEMORY.md': '- [Style](style.md) — style\n',
      'style.md': 'Prefer early returns.\n',
    });
    world.fake.enqueue(
      toolUseTurn([
        { name: 'grep', input: { pattern: 'x', path: '@transcripts' } },
        { name: 'edit_file', input: { path: 'style.md', old_string: 'early returns', new_string: 'early returns and small functions' } },
      ]),
      textTurn('Merged style notes.'),
    );
    const started = await call('startDream', { target: { kind: 'agent', dir: agentDir } });
    expect(started).toMatchObject({ ok: true, value: { status: 'running', target: { transcriptDir: null } } });
    const record = await world.jobs.waitForJob((started as { value: { id: string } }).value.id);
    expect(record.target.label).toBe('the reviewer agent (user scope)');
    expect(String(world.fake.requests[0].body.system)).toContain('this memory has no transcripts to search');
    expect(world.fake.requests[1].rawBody).toContain('this memory has no transcript folder');
    const applied = await call('applyJob', { jobId: record.id, decisions: [{ path: 'style.md', decision: 'accept' }] });
    expect(applied).toMatchObject({ ok: true, value: { applied: [{ path: 'style.md', kind: 'modify' }] } });
    expect(await fs.readFile(join(agentDir, 'style.md'), 'utf8')).toBe('Prefer early returns and small functions.\n');
    await expect(fs.stat(join(agentDir, '.consolidate-lock'))).rejects.toThrow();
    const listed = await call('listJobs', {});
    expect(listed).toMatchObject({ ok: true, value: [{ id: record.id, status: 'applied', proposalCount: 1 }] });
    expect(await call('applyJob', { jobId: record.id, decisions: [] })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
  });
});
