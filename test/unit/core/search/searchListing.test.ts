import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSessionFiles } from '../../../../electron/core/catalog/catalogDiscovery';
import { listFolderSync, type ListedFile } from '../../../../electron/core/search/searchListing';
import { createScenarioHome, type ProjectBuilder, type ScenarioHome } from '../../../fixtures/scenarioHome';
import { seededUuid } from '../../../fixtures/sessionLines';
import { userPrompt } from '../../../fixtures/transcriptLines';

const line = `${userPrompt('hello')}\n`;

/** What the catalog's discovery finds in a project, in the listing's terms (the catalog keeps whole milliseconds). */
async function discoveredByCatalog(root: string, slug: string): Promise<string[]> {
  const project = (await discoverSessionFiles([root])).find((p) => p.slug === slug);
  if (!project) throw new Error(`no project ${slug}`);
  return [
    ...project.sessions.flatMap((session) => [
      ...(session.main ? [{ ...session.main, sessionId: session.sessionId, agentId: null }] : []),
      ...session.subagents.map((agent) => ({ ...agent, sessionId: session.sessionId, agentId: agent.agentId })),
    ]),
    ...project.siblingAgents.map((agent) => ({ ...agent, sessionId: null, agentId: agent.agentId })),
  ]
    .map((file) => `${file.path} ${file.size} ${file.mtimeMs} ${file.sessionId} ${file.agentId}`)
    .sort();
}

function described(files: readonly ListedFile[]): string[] {
  return files.map((file) => `${file.path} ${file.size} ${Math.floor(file.mtimeMs)} ${file.sessionId} ${file.agentId}`).sort();
}

describe('listFolderSync', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  const live = seededUuid('listing-live');
  const empty = seededUuid('listing-empty');
  const orphanDir = seededUuid('listing-orphan');
  const linked = seededUuid('listing-linked');

  beforeAll(async () => {
    home = await createScenarioHome();
    project = home.project(home.workPath('app'));
    await project.rawFile(`${live}.jsonl`, line, { mtime: '2026-05-01T00:00:00.000Z' });
    await project.rawFile(`${live}/subagents/agent-a1.jsonl`, line);
    await project.rawFile(`${live}/subagents/agent-a1.meta.json`, '{}');
    await project.rawFile(`${live}/subagents/workflows/run-1/agent-deep.jsonl`, line);
    await project.rawFile(`${live}/subagents/a/b/c/agent-deepest.jsonl`, line);
    // Deeper than sub-agent folders go: neither the catalog nor the search reads it.
    await project.rawFile(`${live}/subagents/a/b/c/d/agent-too-deep.jsonl`, line);
    await project.rawFile(`${live}/session-memory/summary.md`, '# not a transcript\n');
    await project.rawFile(`${live}/tool-results/toolu_1.txt`, 'the full output\n');
    await project.rawFile(`${live}/tool-results/webfetch-1.jpg`, 'not text');
    // A zero-byte session is listed like any other (as `projects` counts it), with its sub-agents.
    await project.rawFile(`${empty}.jsonl`, '');
    await project.rawFile(`${empty}/subagents/agent-e1.jsonl`, line);
    // Sub-agents of a session whose file is gone: still read.
    await project.rawFile(`${orphanDir}/subagents/agent-o1.jsonl`, line);
    await project.rawFile(`${orphanDir}/tool-results/toolu_2.txt`, 'orphaned output\n');
    await project.rawFile('agent-sibling.jsonl', line);
    await project.rawFile('sessions-index.json', '{}');
    await project.rawFile('notes.jsonl', line);
    // A session file that is a symlink is followed; a broken symlink is skipped.
    const elsewhere = home.workPath('elsewhere.jsonl');
    await writeFile(elsewhere, line);
    await symlink(elsewhere, join(project.dir, `${linked}.jsonl`));
    await symlink(home.workPath('missing.jsonl'), join(project.dir, `${seededUuid('listing-broken')}.jsonl`));
  });
  afterAll(() => home.cleanup());

  it('lists what the catalog discovers in a project folder (sessions, orphan sub-agent folders, sibling agents), and the texts beside them', async () => {
    const listed = listFolderSync({ kind: 'project', dir: project.dir });
    expect(described(listed.filter((file) => file.role === 'transcript'))).toEqual(await discoveredByCatalog(home.root, project.slug));
    expect(listed.map((file) => [file.role, file.path.slice(project.dir.length + 1), file.sessionId, file.agentId]).sort()).toEqual(
      [
        ['transcript', `${linked}.jsonl`, linked, null],
        ['transcript', `${live}.jsonl`, live, null],
        ['transcript', `${live}/subagents/agent-a1.jsonl`, live, 'a1'],
        ['transcript', `${live}/subagents/a/b/c/agent-deepest.jsonl`, live, 'deepest'],
        ['transcript', `${live}/subagents/workflows/run-1/agent-deep.jsonl`, live, 'deep'],
        ['session-memory', `${live}/session-memory/summary.md`, live, null],
        ['tool-output', `${live}/tool-results/toolu_1.txt`, live, null],
        ['transcript', `${empty}.jsonl`, empty, null],
        ['transcript', `${empty}/subagents/agent-e1.jsonl`, empty, 'e1'],
        ['transcript', `${orphanDir}/subagents/agent-o1.jsonl`, orphanDir, 'o1'],
        ['tool-output', `${orphanDir}/tool-results/toolu_2.txt`, orphanDir, null],
        ['transcript', 'agent-sibling.jsonl', null, 'sibling'],
      ].sort(),
    );
    const session = listed.find((file) => file.sessionId === live && file.agentId === null);
    expect(session).toMatchObject({ size: Buffer.byteLength(line), mtimeMs: Date.parse('2026-05-01T00:00:00.000Z') });
  });

  it('lists the Markdown files of a memory folder, not following symlinks, and nothing for a missing folder', async () => {
    await project.memory('MEMORY.md', '- [a](a.md)\n');
    await project.memory('topics/a.md', 'a\n');
    await project.memory('topics/UPPER.MD', 'b\n');
    await project.memory('topics/data.json', '{}');
    await project.memory('1/2/3/4/5/6/7/deep.md', 'too deep\n');
    await project.memory('1/2/3/4/5/6/deepest.md', 'deep enough\n');
    await symlink(join(project.memoryDir, 'topics'), join(project.memoryDir, 'linked-topics'));
    await symlink(join(project.memoryDir, 'topics', 'a.md'), join(project.memoryDir, 'linked.md'));
    const listed = listFolderSync({ kind: 'memory', dir: project.memoryDir, maxDepth: 6 });
    expect(listed.map((file) => file.path.slice(project.memoryDir.length + 1)).sort()).toEqual(
      ['1/2/3/4/5/6/deepest.md', 'MEMORY.md', 'topics/UPPER.MD', 'topics/a.md'].sort(),
    );
    expect(listed.every((file) => file.sessionId === null && file.agentId === null)).toBe(true);
    expect(listFolderSync({ kind: 'memory', dir: join(project.dir, 'no-such-folder'), maxDepth: 6 })).toEqual([]);
  });
});
