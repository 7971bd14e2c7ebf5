import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toJobJson } from '../../../electron/core/jobs/jobJson';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { textTurn, toolUseTurn } from '../../helpers/fakeAnthropicServer';
import { createJobWorld, type JobWorld } from './jobWorld';

interface ToolResult {
  readonly tool_use_id: string;
  readonly content: string;
  readonly is_error: boolean;
}

/** The tool results the app sent back in the n-th request (1-based). */
function toolResultsOf(world: JobWorld, request: number): ToolResult[] {
  const messages = world.fake.requests[request - 1].body.messages as { role: string; content: unknown }[];
  const last = messages[messages.length - 1];
  return last.content as ToolResult[];
}

describe('the validator between the model and the memory folder', () => {
  let world: JobWorld;
  beforeEach(async () => {
    world = await createJobWorld();
  });
  afterEach(async () => {
    await world.cleanup();
  });

  it('refuses writes outside the folder, to the lock, to transcripts, through symlinks, MEMORY.md deletion and oversize content', async () => {
    const memoryDir = world.project.memoryDir;
    const target = join(world.home.tmp, 'elsewhere');
    await fs.mkdir(target);
    await fs.writeFile(join(target, 'target.md'), 'not memory\n');
    await fs.symlink(join(target, 'target.md'), join(memoryDir, 'linked.md'));
    await fs.symlink(target, join(memoryDir, 'linkdir'));
    const session = world.sessions[0].sessionId;
    const attempts = [
      { name: 'write_file', input: { path: '../escape.md', content: 'x' } },
      { name: 'write_file', input: { path: 'notes/../../../escape.md', content: 'x' } },
      { name: 'write_file', input: { path: world.outsideFile, content: 'x' } },
      { name: 'write_file', input: { path: '/etc/passwd.md', content: 'x' } },
      { name: 'write_file', input: { path: '.consolidate-lock', content: '1' } },
      { name: 'delete_file', input: { path: '.consolidate-lock' } },
      { name: 'edit_file', input: { path: `@transcripts/${session}.jsonl`, old_string: 'a', new_string: 'b' } },
      { name: 'write_file', input: { path: `${session}.jsonl`, content: '{}' } },
      { name: 'write_file', input: { path: join(world.project.dir, `${session}.jsonl`), content: '{}' } },
      { name: 'delete_file', input: { path: 'MEMORY.md' } },
      { name: 'delete_file', input: { path: './MEMORY.md' } },
      { name: 'write_file', input: { path: 'linked.md', content: 'through the link' } },
      { name: 'write_file', input: { path: 'linkdir/new.md', content: 'through the folder link' } },
      { name: 'write_file', input: { path: 'huge.md', content: 'x'.repeat(250_001) } },
      { name: 'write_file', input: { path: join(memoryDir, 'absolute_inside.md'), content: 'fine\n' } },
    ];
    world.fake.enqueue(toolUseTurn(attempts), textTurn('Tried.'));
    const memoryBefore = await world.memorySnapshot();
    const outsideBefore = await world.outsideSnapshot();
    const elsewhereBefore = await snapshotTree(target);
    const record = await world.finished(await world.jobs.startDream({ kind: 'project', ...world.ref }));

    const results = toolResultsOf(world, 2);
    expect(results).toHaveLength(attempts.length);
    expect(results.slice(0, -1).every((r) => r.is_error && r.content.startsWith('Refused: '))).toBe(true);
    expect(results[results.length - 1]).toMatchObject({ is_error: false });
    expect(record.proposals.map((p) => p.path)).toEqual(['absolute_inside.md']);
    const reasons = Object.fromEntries(record.refused.map((r) => [r.path, r.reason]));
    expect(reasons).toEqual({
      '../escape.md': 'outside the memory folder',
      'notes/../../../escape.md': 'outside the memory folder',
      [world.outsideFile]: 'outside the memory folder',
      '/etc/passwd.md': 'outside the memory folder',
      '.consolidate-lock': 'the consolidation lock is not a memory file',
      [`@transcripts/${session}.jsonl`]: 'transcripts are read-only',
      [`${session}.jsonl`]: 'transcripts are read-only',
      [join(world.project.dir, `${session}.jsonl`)]: 'transcripts are read-only',
      'MEMORY.md': 'MEMORY.md cannot be deleted',
      './MEMORY.md': 'MEMORY.md cannot be deleted',
      'linked.md': 'symlinks are never written through',
      'linkdir/new.md': 'symlinks are never written through',
      'huge.md': 'content is over 250 KB',
    });
    expect(
      record.refused
        .filter((r) => r.path === '.consolidate-lock')
        .map((r) => r.kind)
        .sort(),
    ).toEqual(['add', 'delete']);
    const json = toJobJson(record);
    expect(json.proposals.filter((p) => !p.accepted)).toHaveLength(record.refused.length);
    expect(json.proposals.find((p) => p.path === 'huge.md')).toEqual({
      path: 'huge.md',
      kind: 'add',
      diff: '',
      accepted: false,
      rejectedReason: 'content is over 250 KB',
      evidence: [],
    });

    expect(await world.memorySnapshot()).toEqual(memoryBefore);
    expect(await world.outsideSnapshot()).toEqual(outsideBefore);
    expect(await snapshotTree(target)).toEqual(elsewhereBefore);
    await world.expectNoKeyLeak();
  });

  it('reads neither through symlinks nor outside the folders, and says so to the model', async () => {
    await fs.symlink(world.outsideFile, join(world.project.memoryDir, 'linked.md'));
    world.fake.enqueue(
      toolUseTurn([
        { name: 'read_file', input: { path: 'linked.md' } },
        { name: 'read_file', input: { path: '../../../CLAUDE.md' } },
        { name: 'list_dir', input: { path: '/' } },
        { name: 'grep', input: { pattern: 'Global', path: '@transcripts/../../..' } },
        { name: 'read_file', input: { path: `@transcripts/${world.sessions[0].sessionId}.jsonl`, offset: 0 } },
      ]),
      textTurn('Nothing to do.'),
    );
    const record = await world.finished(await world.jobs.startDream({ kind: 'project', ...world.ref }));
    expect(record.status).toBe('ready');
    const results = toolResultsOf(world, 2);
    expect(results.map((r) => r.is_error)).toEqual([true, true, true, true, false]);
    expect(results[0].content).toContain('symlink');
    expect(results.slice(1, 4).every((r) => r.content === 'Refused: outside the memory folder')).toBe(true);
    expect(results[4].content).toContain('<transcript_data');
    expect(JSON.stringify(world.fake.requests[1].body)).not.toContain('Global instructions');
  });

  it('answers a misused tool with a tool error the model can act on, and carries on', async () => {
    world.fake.enqueue(
      toolUseTurn([
        { name: 'shell', input: { command: 'rm -rf /' } },
        { name: 'write_file', input: { path: 'a.md' } },
        { name: 'read_file', input: { path: 'missing.md' } },
        { name: 'edit_file', input: { path: 'feedback_tests.md', old_string: 'not there', new_string: 'x' } },
        { name: 'edit_file', input: { path: 'feedback_tests.md', old_string: '**', new_string: 'x' } },
        { name: 'delete_file', input: { path: 'missing.md' } },
        { name: 'list_dir', input: { path: 'user_role.md' } },
      ]),
      toolUseTurn([{ name: 'write_file', input: { path: 'fixed.md', content: 'Fixed.\n' } }]),
      textTurn('Recovered.'),
    );
    const record = await world.finished(await world.jobs.startDream({ kind: 'project', ...world.ref }));
    expect(toolResultsOf(world, 2).map((r) => [r.is_error, r.content])).toEqual([
      [true, 'Unknown tool shell'],
      [true, 'Bad input for write_file: content Invalid input: expected string, received undefined'],
      [true, 'missing.md does not exist'],
      [true, 'old_string was not found in the file'],
      [true, 'old_string occurs more than once; include more context'],
      [true, 'missing.md does not exist'],
      [true, 'user_role.md is not a folder'],
    ]);
    expect(record).toMatchObject({ status: 'ready', summary: 'Recovered.', refused: [] });
    expect(record.proposals.map((p) => p.path)).toEqual(['fixed.md']);
  });

  it('stops staging at 200 files when the model tries to write 10,000', async () => {
    const calls = Array.from({ length: 10_000 }, (_, i) => ({
      name: 'write_file',
      input: { path: `bulk/note_${String(i).padStart(5, '0')}.md`, content: `note ${i}\n` },
    }));
    world.fake.enqueue(toolUseTurn(calls), textTurn('Wrote a lot.'));
    // Sending 10,000 refusals back is a big request; the default $2 cap would rightly stop before it.
    await world.engine.llmSettings.update({ maxCostUsdPerJob: 10 });
    const memoryBefore = await world.memorySnapshot();
    const record = await world.finished(await world.jobs.startDream({ kind: 'project', ...world.ref }));
    expect(record.status).toBe('ready');
    expect(record.stopReason).toBeNull();
    expect(record.proposals).toHaveLength(200);
    expect(record.refusedCount).toBe(9_800);
    expect(record.refused.length).toBeLessThanOrEqual(500);
    expect(new Set(record.refused.map((r) => r.reason))).toEqual(new Set(['more than 200 files in one job']));
    const results = toolResultsOf(world, 2);
    expect(results.filter((r) => r.is_error)).toHaveLength(9_800);
    expect(await world.memorySnapshot()).toEqual(memoryBefore);
  });
});
