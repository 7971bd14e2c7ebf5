import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAgentList, writeAgentList } from '../../../electron/core/history/archive/archivedAgentList';
import type { ArchivedFileRecord } from '../../../electron/core/history/archive/archiveModel';
import { TranscriptArchive } from '../../../electron/core/history/archive/TranscriptArchive';
import { TranscriptService } from '../../../electron/core/transcripts/TranscriptService';
import { TranscriptSources } from '../../../electron/core/transcripts/transcriptSources';
import { LIVE_VIEW } from '../../../shared/transcript/transcriptOutline';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { createTestHomeService } from '../../fixtures/testEngine';
import { writeRichSession, type RichSession } from '../transcripts/richSession';
import { candidateFor } from './archiveCandidates';

describe('the list of archived sub-agents saved beside the manifest', () => {
  let home: ScenarioHome;
  let rich: RichSession;
  let archiveDir: string;
  let ref: { configRoot: string; slug: string; sessionId: string };
  const services: TranscriptService[] = [];

  /** The viewer of a new process: a new archive object over the same folder, nothing read yet. */
  function viewerInNewProcess(): { archive: TranscriptArchive; viewer: TranscriptService } {
    const archive = new TranscriptArchive(archiveDir);
    const viewer = new TranscriptService(
      createTestHomeService(home, { shell: 'electron' }),
      null,
      undefined,
      new TranscriptSources(archive),
    );
    services.push(viewer);
    return { archive, viewer };
  }

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-archived-agent-list-' });
    const project = home.project(home.workPath('shop'));
    rich = await writeRichSession(project);
    ref = { configRoot: home.root, slug: project.slug, sessionId: rich.sessionId };
    archiveDir = join(home.tmp, 'data', 'archive');
    const archive = new TranscriptArchive(archiveDir);
    await archive.update([
      candidateFor({ path: rich.path, ...ref }),
      candidateFor({ path: rich.subagentPath, ...ref, agentId: rich.agentId, layout: 'subagents-folder' }),
    ]);
    await archive.dispose();
  });

  afterAll(async () => {
    for (const service of services) service.dispose();
    await home.cleanup();
  });

  it('answers a session whose sub-agents are all on disk without reading the manifest', async () => {
    const { archive, viewer } = viewerInNewProcess();
    const outline = await viewer.outline(ref, LIVE_VIEW);
    expect(outline.subagents.map((agent) => agent.agentId)).toContain(rich.agentId);
    // The manifest, once read, fills the archive's records.
    expect(archive.files()).toEqual([]);
  });

  it('reads the manifest for a sub-agent only the archive still holds, and a list of another manifest is not used', async () => {
    const before = await viewerInNewProcess().viewer.outline(ref, LIVE_VIEW);
    await rm(rich.subagentPath);
    const gone = await viewerInNewProcess().viewer.outline(ref, LIVE_VIEW);
    expect(gone.subagents).toEqual(before.subagents);

    // A list saved for another manifest (another process saved one since) that names no sub-agent of the session.
    await writeAgentList(archiveDir, '0'.repeat(40), []);
    const stale = await viewerInNewProcess().viewer.outline(ref, LIVE_VIEW);
    expect(stale.subagents).toEqual(before.subagents);
  });
});

describe('the saved list read back', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ccmem-agent-list-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  function record(path: string, slug: string, sessionId: string, agentId: string | null): ArchivedFileRecord {
    return { path, configRoot: '/home/u/.claude', slug, sessionId, agentId } as ArchivedFileRecord;
  }

  it('gives each session its sub-agents’ paths, whatever their slug is named, and nothing for another manifest', async () => {
    const project = '/home/u/.claude/projects/constructor';
    await writeAgentList(dir, 'a'.repeat(40), [
      record(`${project}/s1.jsonl`, 'constructor', 's1', null),
      record(`${project}/s1/subagents/agent-a.jsonl`, 'constructor', 's1', 'a'),
      record(`${project}/agent-b.jsonl`, 'constructor', 's1', 'b'),
      record('/elsewhere/agent-c.jsonl', 'constructor', 's2', 'c'),
      record(`${project}/__proto__/subagents/agent-d.jsonl`, 'constructor', '__proto__', 'd'),
    ]);
    const pathsOf = await readAgentList(dir, 'a'.repeat(40));
    expect(pathsOf).not.toBeNull();
    expect(pathsOf?.('/home/u/.claude', 'constructor', 's1')).toEqual([
      `${project}/s1/subagents/agent-a.jsonl`,
      `${project}/agent-b.jsonl`,
    ]);
    expect(pathsOf?.('/home/u/.claude', 'constructor', 's2')).toEqual(['/elsewhere/agent-c.jsonl']);
    expect(pathsOf?.('/home/u/.claude', 'constructor', '__proto__')).toEqual([`${project}/__proto__/subagents/agent-d.jsonl`]);
    expect(pathsOf?.('/home/u/.claude', 'constructor', 'toString')).toEqual([]);
    expect(pathsOf?.('/home/u/.claude', 'hasOwnProperty', 's1')).toEqual([]);
    expect(await readAgentList(dir, 'b'.repeat(40))).toBeNull();
  });
});
