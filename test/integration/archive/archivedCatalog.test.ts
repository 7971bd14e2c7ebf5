import { appendFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionUpdate } from '../../../shared/model/catalog';
import { SessionCatalog } from '../../../electron/core/catalog/SessionCatalog';
import { candidatesFromCatalog } from '../../../electron/core/history/archive/catalogCandidates';
import { TranscriptArchive } from '../../../electron/core/history/archive/TranscriptArchive';
import { createScenarioHome, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import type { SessionFacts } from '../../fixtures/sessionLines';
import { writeRichSession, type RichSession } from '../transcripts/richSession';
import { assistantChunk, toolUse } from '../../fixtures/transcriptLines';

describe('the catalog keeps sessions Claude Code deleted, from the archive', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let rich: RichSession;
  let plain: SessionFacts;
  let dataDir: string;
  let archive: TranscriptArchive;
  const catalogs: SessionCatalog[] = [];

  const newCatalog = (withArchive = true) => {
    const catalog = new SessionCatalog({ dataDir, roots: [home.root], archive: withArchive ? archive : undefined });
    catalogs.push(catalog);
    return catalog;
  };

  beforeEach(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-archived-catalog-' });
    project = home.project(home.workPath('shop'));
    rich = await writeRichSession(project);
    plain = await project.session({ turns: 2 });
    // A memory write, so the archived entry has to carry what the file said.
    await appendFile(
      plain.file,
      `${assistantChunk({
        sessionId: plain.sessionId,
        messageId: 'msg_memory',
        usage: { output: 5 },
        timestamp: '2026-05-01T12:00:00.000Z',
        block: toolUse('toolu_memory', 'Write', { file_path: join(project.memoryDir, 'user_tabs.md'), content: 'tabs' }),
      })}\n`,
    );
    dataDir = join(home.tmp, 'data');
    archive = new TranscriptArchive(join(dataDir, 'archive'));
  });
  afterEach(async () => {
    for (const catalog of catalogs.splice(0)) await catalog.dispose();
    await archive.dispose();
    await home.cleanup();
  });

  it('lists a deleted session as archived with the facts it had, reading nothing again', async () => {
    const catalog = newCatalog();
    await catalog.build();
    const before = catalog.get(home.root, project.slug, rich.sessionId)!;
    expect(before.archived).toBe(false);
    expect(before.subagents).toHaveLength(1);
    await archive.update(candidatesFromCatalog(catalog.transcriptFiles()));

    await rm(rich.path);
    await rm(dirname(rich.subagentPath), { recursive: true });
    const result = await catalog.build();
    expect(result).toMatchObject({ filesRead: 0, sessions: 2 });
    expect(catalog.get(home.root, project.slug, rich.sessionId)).toEqual({ ...before, archived: true });
    // The archived files are not handed to the archive again as files on disk.
    expect(catalog.transcriptFiles().map((file) => file.path)).toEqual([plain.file]);
  });

  it('rebuilds a deleted session from the archive when its cache is gone', async () => {
    const first = newCatalog();
    await first.build();
    const expected = first.get(home.root, project.slug, plain.sessionId)!;
    expect(expected.memoryWrites).toEqual([join(project.memoryDir, 'user_tabs.md')]);
    await archive.update(candidatesFromCatalog(first.transcriptFiles()));
    await first.dispose();
    await rm(plain.file);
    await rm(join(dataDir, 'catalog'), { recursive: true });

    const cold = newCatalog();
    // The other session's two files from the disk, the deleted one from the archive.
    expect(await cold.build()).toMatchObject({ filesRead: 3, sessions: 2 });
    expect(cold.get(home.root, project.slug, plain.sessionId)).toEqual({ ...expected, archived: true });
  });

  it('turns a live deletion into an archived session instead of removing it', async () => {
    const catalog = newCatalog();
    await catalog.build();
    await archive.update(candidatesFromCatalog(catalog.transcriptFiles()));
    const updates: SessionUpdate[] = [];
    catalog.onDidUpdateSessions((update) => updates.push(update));
    await rm(plain.file);
    await catalog.refreshSessions([{ configRoot: home.root, slug: project.slug, sessionId: plain.sessionId }]);
    expect(updates).toEqual([{ updated: [expect.objectContaining({ sessionId: plain.sessionId, archived: true })], removed: [] }]);

    // Without an archived copy a deleted session leaves the catalog, as before.
    const other = await project.session({ turns: 1 });
    await catalog.build();
    await rm(other.file);
    await catalog.refreshSessions([{ configRoot: home.root, slug: project.slug, sessionId: other.sessionId }]);
    expect(updates.at(-1)).toEqual({ updated: [], removed: [{ configRoot: home.root, slug: project.slug, sessionId: other.sessionId }] });
  });

  it('drops a deleted session without an archive', async () => {
    const catalog = newCatalog(false);
    await catalog.build();
    await rm(plain.file);
    await catalog.build();
    expect(catalog.get(home.root, project.slug, plain.sessionId)).toBeNull();
  });
});
