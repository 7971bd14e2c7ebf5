import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentMemoryPlaces, discoverAgentMemories } from '../../../../electron/core/layout/agentMemoryDiscovery';
import { createScenarioHome, type ScenarioHome } from '../../../fixtures/scenarioHome';

let home: ScenarioHome;
let project: string;

beforeAll(async () => {
  home = await createScenarioHome();
  project = home.workPath('app');
  await home.agentMemory('user', 'my-plugin:reviewer', { 'MEMORY.md': '# r\n', 'notes/style.md': '# s\n', 'ignored.txt': 'x' });
  await home.agentMemory('project', 'qa', { 'MEMORY.md': '# qa\n' }, project);
  await home.agentMemory('project', 'no-index', { 'topic.md': '# t\n' }, project);
  await home.agentMemory('local', 'deployer', { 'MEMORY.md': '# d\n', 'a.md': 'a', 'b.md': 'b' }, project);
  await home.agentSnapshot(project, 'qa', { 'MEMORY.md': '# seed\n' });
  await home.agentSnapshot(project, 'planner');
});
afterAll(async () => {
  await home.cleanup();
});

describe('agentMemoryPlaces', () => {
  it('user scope per config root, project and local scopes per project', () => {
    expect(agentMemoryPlaces(['/r1', '/r2'], ['/p'])).toEqual([
      { scope: 'user', baseDir: '/r1/agent-memory', projectPath: null },
      { scope: 'user', baseDir: '/r2/agent-memory', projectPath: null },
      { scope: 'project', baseDir: '/p/.claude/agent-memory', projectPath: '/p' },
      { scope: 'local', baseDir: '/p/.claude/agent-memory-local', projectPath: '/p' },
    ]);
  });
});

describe('discoverAgentMemories', () => {
  it('lists every scope, counts *.md recursively with MEMORY.md, links snapshots, lists snapshot-only agents', async () => {
    const agents = await discoverAgentMemories([home.root], [project]);
    expect(agents.map((a) => [a.scope, a.agentType, a.fileCount, a.hasIndex, a.snapshot.dir])).toEqual([
      ['user', 'my-plugin-reviewer', 2, true, null],
      ['project', 'no-index', 1, false, null],
      ['project', 'planner', 0, false, join(project, '.claude', 'agent-memory-snapshots', 'planner')],
      ['project', 'qa', 1, true, join(project, '.claude', 'agent-memory-snapshots', 'qa')],
      ['local', 'deployer', 3, true, null],
    ]);
    expect(agents.find((a) => a.agentType === 'planner')?.dir).toBe(join(project, '.claude', 'agent-memory', 'planner'));
  });

  it('missing places are simply empty', async () => {
    expect(await discoverAgentMemories([join(home.tmp, 'nope')], [join(home.tmp, 'no-project')])).toEqual([]);
  });
});
