import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverAgentMemories } from '../../../electron/core/layout/agentMemoryDiscovery';
import type { AgentMemorySummary } from '../../../shared/model/agents';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { snapshotTree } from '../../fixtures/treeSnapshot';

const OLD = '2026-04-01T00:00:00.000Z';
const NEW = '2026-04-02T00:00:00.000Z';
const synced = (syncedFrom: string) => ({ '.snapshot-synced.json': JSON.stringify({ syncedFrom }) });

let home: ScenarioHome;
let project: string;
let agents: AgentMemorySummary[];

function row(scope: string, agentType: string): AgentMemorySummary {
  const found = agents.find((a) => a.scope === scope && a.agentType === agentType);
  if (!found) throw new Error(`no ${scope} agent ${agentType}`);
  return found;
}

beforeAll(async () => {
  home = await createScenarioHome();
  project = home.workPath('app');
  // no snapshot at all
  await home.agentMemory('project', 'plain', { 'MEMORY.md': '# plain\n' }, project);
  // snapshot + empty local folder (only the synced marker and a sub-folder file, which Claude Code does not count)
  await home.agentSnapshot(project, 'empty-local', { 'MEMORY.md': '# seed\n' }, NEW);
  await home.agentMemory('project', 'empty-local', { ...synced(NEW), 'sub/deep.md': '# deep\n' }, project);
  // snapshot newer than synced
  await home.agentSnapshot(project, 'behind', { 'MEMORY.md': '# seed\n' }, NEW);
  await home.agentMemory('project', 'behind', { 'MEMORY.md': '# mine\n', ...synced(OLD) }, project);
  // equal
  await home.agentSnapshot(project, 'equal', { 'MEMORY.md': '# seed\n' }, NEW);
  await home.agentMemory('project', 'equal', { 'MEMORY.md': '# seed\n', ...synced(NEW) }, project);
  // invalid snapshot.json
  const invalid = await home.agentSnapshot(project, 'invalid', { 'MEMORY.md': '# seed\n' });
  await writeFile(join(invalid, 'snapshot.json'), '{"updatedAt": ""}');
  await home.agentMemory('project', 'invalid', { 'MEMORY.md': '# mine\n' }, project);
  // no synced file
  await home.agentSnapshot(project, 'unsynced', { 'MEMORY.md': '# seed\n' }, OLD);
  await home.agentMemory('project', 'unsynced', { 'MEMORY.md': '# mine\n' }, project);
  // a plugin agent: snapshot under its raw type, memory under the sanitised folder
  await home.agentSnapshot(project, 'my-plugin:reviewer', { 'MEMORY.md': '# r\n' }, NEW);
  await home.agentMemory('local', 'my-plugin:reviewer', { 'MEMORY.md': '# r\n', ...synced(NEW) }, project);
  // snapshot only, nothing local in any scope
  await home.agentSnapshot(project, 'newcomer', { 'MEMORY.md': '# seed\n' }, NEW);
  // a symlinked .md is not memory to Claude Code
  const linked = await home.agentMemory('project', 'linked', {}, project);
  await home.agentSnapshot(project, 'linked', { 'MEMORY.md': '# seed\n' }, NEW);
  await mkdir(home.workPath('elsewhere'), { recursive: true });
  await writeFile(home.workPath('elsewhere', 'real.md'), '# real\n');
  await symlink(home.workPath('elsewhere', 'real.md'), join(linked, 'MEMORY.md'));
  // a snapshot folder that is a symlink to elsewhere in the project: Claude Code reads through it, and so does the app
  await mkdir(join(project, 'shared-snapshot'), { recursive: true });
  await writeFile(join(project, 'shared-snapshot', 'snapshot.json'), JSON.stringify({ updatedAt: NEW }));
  await symlink(join(project, 'shared-snapshot'), join(project, '.claude', 'agent-memory-snapshots', 'via-link'));
  // one that leads out of the project (a repository may commit any link): listed, never read
  await mkdir(home.workPath('outside-snapshot'), { recursive: true });
  await writeFile(home.workPath('outside-snapshot', 'snapshot.json'), JSON.stringify({ updatedAt: NEW }));
  await symlink(home.workPath('outside-snapshot'), join(project, '.claude', 'agent-memory-snapshots', 'via-outside-link'));
  // user scope
  await home.agentMemory('user', 'code-reviewer', { 'MEMORY.md': '# cr\n', ...synced(OLD) });

  const before = await snapshotTree(home.tmp);
  agents = await discoverAgentMemories([home.root], [project]);
  expect(await snapshotTree(home.tmp)).toEqual(before);
});

afterAll(async () => {
  await home.cleanup();
});

describe('snapshot status exactly as Claude Code computes it', () => {
  it('no snapshot → none, no snapshot dir', () => {
    expect(row('project', 'plain').snapshot).toEqual({ dir: null, updatedAt: null, syncedFrom: null, action: 'none' });
  });

  it('snapshot with an empty local folder → initialize (sub-folder files do not count)', () => {
    expect(row('project', 'empty-local').snapshot).toEqual({
      dir: join(project, '.claude', 'agent-memory-snapshots', 'empty-local'),
      updatedAt: NEW,
      syncedFrom: NEW,
      action: 'initialize',
    });
  });

  it('snapshot newer than synced → prompt-update, both times shown', () => {
    expect(row('project', 'behind').snapshot).toMatchObject({ updatedAt: NEW, syncedFrom: OLD, action: 'prompt-update' });
  });

  it('equal → none', () => {
    expect(row('project', 'equal').snapshot).toMatchObject({ updatedAt: NEW, syncedFrom: NEW, action: 'none' });
  });

  it('invalid snapshot.json → none, with a warning', () => {
    const invalid = row('project', 'invalid');
    expect(invalid.snapshot).toMatchObject({ updatedAt: null, action: 'none' });
    expect(invalid.snapshot.dir).not.toBeNull();
    expect(invalid.warnings).toEqual([expect.objectContaining({ code: 'snapshot-invalid' })]);
  });

  it('no synced file → prompt-update', () => {
    expect(row('project', 'unsynced').snapshot).toMatchObject({ updatedAt: OLD, syncedFrom: null, action: 'prompt-update' });
  });

  it('a symlinked MEMORY.md is not local memory → initialize', () => {
    expect(row('project', 'linked').snapshot.action).toBe('initialize');
  });
});

describe('a symlinked snapshot folder', () => {
  it('counts, as Claude Code reads through it: a snapshot-only agent to initialise', () => {
    expect(row('project', 'via-link').snapshot).toEqual({
      dir: join(project, '.claude', 'agent-memory-snapshots', 'via-link'),
      updatedAt: NEW,
      syncedFrom: null,
      action: 'initialize',
    });
    expect(row('project', 'via-link').outsideRoot).toEqual([]);
  });

  it('leading out of the project, is listed with a warning but never read: no status, nothing to initialise', () => {
    const outside = row('project', 'via-outside-link');
    expect(outside.outsideRoot).toEqual(['snapshot']);
    expect(outside.snapshot).toEqual({ dir: null, updatedAt: null, syncedFrom: null, action: 'none' });
    expect(outside.warnings).toEqual([
      expect.objectContaining({ code: 'outside-root', path: join(project, '.claude', 'agent-memory-snapshots', 'via-outside-link') }),
    ]);
  });
});

describe('discovery', () => {
  it('a plugin agent keeps its raw type from the snapshot and pairs with the sanitised memory folder', () => {
    const plugin = row('local', 'my-plugin:reviewer');
    expect(plugin.dir).toBe(join(project, '.claude', 'agent-memory-local', 'my-plugin-reviewer'));
    expect(plugin.snapshot).toMatchObject({
      dir: join(project, '.claude', 'agent-memory-snapshots', 'my-plugin:reviewer'),
      action: 'none',
    });
    expect(agents.filter((a) => a.agentType.includes('my-plugin') && a.scope !== 'local')).toEqual([]);
  });

  it('a snapshot-only agent is listed in project scope with fileCount 0', () => {
    expect(row('project', 'newcomer')).toMatchObject({
      dir: join(project, '.claude', 'agent-memory', 'newcomer'),
      fileCount: 0,
      hasIndex: false,
      snapshot: { action: 'initialize', updatedAt: NEW, syncedFrom: null },
    });
  });

  it('user scope has no project snapshot but shows its synced marker', () => {
    expect(row('user', 'code-reviewer')).toMatchObject({
      projectPath: null,
      snapshot: { dir: null, updatedAt: null, syncedFrom: OLD, action: 'none' },
    });
  });
});
