import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireArchiveLock } from '../../../electron/core/history/archive/archiveWriteLock';
import { TranscriptArchive } from '../../../electron/core/history/archive/TranscriptArchive';
import { createScenarioHome, DEAD_PID, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import type { SessionFacts } from '../../fixtures/sessionLines';
import { userPrompt } from '../../fixtures/transcriptLines';
import { candidateFor, fingerprint, readArchived } from './archiveCandidates';

describe('the archive shared by several processes (app, ccmem serve, ccmem archive)', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let session: SessionFacts;
  let dir: string;
  const candidate = () => candidateFor({ path: session.file, configRoot: home.root, slug: project.slug, sessionId: session.sessionId });

  beforeEach(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-archive-lock-' });
    project = home.project(home.workPath('shop'));
    session = await project.session({ turns: 2 });
    dir = join(home.tmp, 'data', 'archive');
  });
  afterEach(() => home.cleanup());

  it('skips a run and refuses a prune while another writer holds the lock, and takes over a dead writer’s lock', async () => {
    const archive = new TranscriptArchive(dir);
    const other = await acquireArchiveLock(dir, { wait: false });
    if (!other.acquired) throw new Error('the lock should be free');
    expect(await archive.update([candidate()])).toMatchObject({ busyWithPid: process.pid, filesArchived: 0 });
    expect(archive.record(session.file)).toBeNull();
    await expect(archive.prune(new Date())).rejects.toMatchObject({ code: 'LOCK_HELD' });
    await other.release();
    expect(await archive.update([candidate()])).toMatchObject({ busyWithPid: null, filesArchived: 1 });

    await writeFile(join(dir, 'write.lock'), String(DEAD_PID));
    await appendFile(session.file, `${userPrompt('more', { sessionId: session.sessionId })}\n`);
    expect(await archive.update([candidate()])).toMatchObject({ busyWithPid: null, filesArchived: 1 });
    await archive.dispose();
  });

  it('a reader loaded before another process rewrote a transcript reads the new copy', async () => {
    const writer = new TranscriptArchive(dir);
    await writer.update([candidate()]);
    const reader = new TranscriptArchive(dir);
    await reader.load();
    const text = await readFile(session.file, 'utf8');
    await writeFile(session.file, text.split('\n').slice(0, 2).join('\n') + '\n');
    expect(await writer.update([candidate()])).toMatchObject({ filesRewritten: 1 });
    expect(fingerprint(await readArchived(reader, session.file))).toEqual(fingerprint(await readFile(session.file)));
    await writer.dispose();
    await reader.dispose();
  });
});
