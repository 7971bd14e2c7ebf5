import { appendFile, open, readdir, readFile, rm, truncate, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TranscriptArchive } from '../../../electron/core/history/archive/TranscriptArchive';
import { ARCHIVE_MANIFEST_FORMAT } from '../../../electron/core/history/archive/archiveModel';
import { readChecksummedJson, writeChecksummedJsonText } from '../../../electron/core/fs/checksummedJsonFile';
import { createScenarioHome, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid, type SessionFacts } from '../../fixtures/sessionLines';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { metadata, userPrompt } from '../../fixtures/transcriptLines';
import { candidateFor, fileBytes, fingerprint, readArchived } from './archiveCandidates';

const VOCABULARY = ['cart', 'total', 'refund', 'payment', 'test', 'flaky', 'index', 'search', 'deploy', 'branch', 'memory'];

/** A prompt line of about `bytes` bytes of varied words (a cheap seeded generator), so a file spans several frames. */
function bigPrompt(sessionId: string, bytes: number, seed: string): string {
  let state = [...seed].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7) || 1;
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    const word = `${VOCABULARY[state % VOCABULARY.length]}${state % 997}`;
    parts.push(word);
    length += word.length + 1;
  }
  return userPrompt(parts.join(' '), { sessionId, uuid: seededUuid(`${seed}:uuid`) });
}

describe('TranscriptArchive', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let session: SessionFacts;
  let archive: TranscriptArchive;
  let archiveDir: string;

  const candidate = (path = session.file, extra: Partial<Parameters<typeof candidateFor>[0]> = {}) =>
    candidateFor({ path, configRoot: home.root, slug: project.slug, sessionId: session.sessionId, ...extra });

  beforeEach(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-archive-' });
    project = home.project(home.workPath('shop'));
    session = await project.session({ turns: 3 });
    archiveDir = join(home.tmp, 'data', 'archive');
    archive = new TranscriptArchive(archiveDir);
  });
  afterEach(async () => {
    await archive.dispose();
    await home.cleanup();
  });

  it('keeps a byte-exact copy, read back at any offset, and writes nothing under the config root', async () => {
    await appendFile(session.file, `${bigPrompt(session.sessionId, 2_600_000, 'big')}\n`);
    const before = await snapshotTree(home.root);
    const result = await archive.update([candidate()]);
    expect(result).toMatchObject({ filesArchived: 1, filesRewritten: 0, cancelled: false });
    const record = archive.record(session.file)!;
    expect(record.frames.length).toBe(3);
    expect(record.compressedBytes).toBeLessThan(record.bytes);
    expect(fingerprint(await readArchived(archive, session.file))).toEqual(fingerprint(await fileBytes(session.file)));
    expect(fingerprint(await readArchived(archive, session.file, 1_000_003))).toEqual(fingerprint(await fileBytes(session.file)));
    expect(await snapshotTree(home.root)).toEqual(before);
  });

  it('answers reads in flight together from one decode of each frame they touch', async () => {
    await appendFile(session.file, `${bigPrompt(session.sessionId, 2_600_000, 'together')}\n`);
    await archive.update([candidate()]);
    const bytes = await fileBytes(session.file);
    const source = (await archive.openSource(session.file))!;
    const handle = await open(session.file);
    const fileHandleRead = vi.spyOn(Object.getPrototypeOf(handle) as FileHandle, 'read');
    await handle.close();
    try {
      // Eight reads inside the first frame, then eight across the first two, all asked at once.
      const spans = [
        ...Array.from({ length: 8 }, (_, i) => [i * 1000, 900]),
        ...Array.from({ length: 8 }, (_, i) => [1_000_000 + i * 20_000, 60_000]),
      ];
      const read = await Promise.all(
        spans.map(async ([at, length]) => {
          const buffer = Buffer.alloc(length);
          const { bytesRead } = await source.read(buffer, 0, length, at);
          return buffer.subarray(0, bytesRead);
        }),
      );
      expect(read.map((chunk, i) => chunk.equals(bytes.subarray(spans[i][0], spans[i][0] + spans[i][1])))).toEqual(spans.map(() => true));
      expect(fileHandleRead).toHaveBeenCalledTimes(2);
    } finally {
      fileHandleRead.mockRestore();
      await source.close();
    }
  });

  it('skips a file whose version it holds, and appends only what a growing file gained', async () => {
    await archive.update([candidate()]);
    expect(await archive.update([candidate()])).toMatchObject({ filesArchived: 0, bytesArchived: 0 });
    const first = archive.record(session.file)!;
    const added = `${userPrompt('one more thing', { sessionId: session.sessionId })}\n`;
    await appendFile(session.file, added);
    const result = await archive.update([candidate()]);
    expect(result).toMatchObject({ filesArchived: 1, filesRewritten: 0, bytesArchived: Buffer.byteLength(added) });
    const grown = archive.record(session.file)!;
    expect(grown.dataFile).toBe(first.dataFile);
    expect(grown.frames.slice(0, first.frames.length)).toEqual(first.frames);
    expect(grown.frames.length).toBe(first.frames.length + 1);
    expect(fingerprint(await readArchived(archive, session.file))).toEqual(fingerprint(await fileBytes(session.file)));
  });

  it('completes a line that was cut mid-write when the rest arrives', async () => {
    const line = userPrompt('a line Claude Code was still writing', { sessionId: session.sessionId });
    const cut = Math.floor(line.length / 2);
    await appendFile(session.file, line.slice(0, cut));
    await archive.update([candidate()]);
    expect(fingerprint(await readArchived(archive, session.file))).toEqual(fingerprint(await fileBytes(session.file)));
    await appendFile(session.file, `${line.slice(cut)}\n${userPrompt('and the next', { sessionId: session.sessionId })}\n`);
    expect(await archive.update([candidate()])).toMatchObject({ filesArchived: 1, filesRewritten: 0 });
    expect(fingerprint(await readArchived(archive, session.file))).toEqual(fingerprint(await fileBytes(session.file)));
  });

  it('archives a rewritten or shrunk transcript anew and drops the old copy', async () => {
    await archive.update([candidate()]);
    const first = archive.record(session.file)!;
    const text = await readFile(session.file, 'utf8');
    // Claude Code rewrites a file only to drop lines (tombstones): shorter, with the same beginning.
    await writeFile(session.file, text.split('\n').slice(0, 3).join('\n') + '\n');
    expect(await archive.update([candidate()])).toMatchObject({ filesArchived: 1, filesRewritten: 1 });
    const rewritten = archive.record(session.file)!;
    expect(rewritten.rewrites).toBe(1);
    expect(rewritten.dataFile).not.toBe(first.dataFile);
    expect(fingerprint(await readArchived(archive, session.file))).toEqual(fingerprint(await fileBytes(session.file)));
    expect(await readdir(join(archiveDir, 'transcripts'))).toEqual([rewritten.dataFile]);

    // The same length with other bytes in the middle is a rewrite too.
    const now = await readFile(session.file);
    now[now.length - 10] = now[now.length - 10] === 0x41 ? 0x42 : 0x41;
    await writeFile(session.file, now);
    expect(await archive.update([candidate()])).toMatchObject({ filesRewritten: 1 });
    expect(fingerprint(await readArchived(archive, session.file))).toEqual(fingerprint(now));
  });

  it('archives anew a transcript that grew with other first bytes, and one changed in bytes it had fewer of before', async () => {
    await archive.update([candidate()]);
    // One of the first bytes changed, then more lines: longer, but not what was archived.
    const changed = await readFile(session.file);
    changed[100] = changed[100] === 0x41 ? 0x42 : 0x41;
    await writeFile(session.file, Buffer.concat([changed, Buffer.from(`${userPrompt('later', { sessionId: session.sessionId })}\n`)]));
    expect(await archive.update([candidate()])).toMatchObject({ filesArchived: 1, filesRewritten: 1 });
    expect(fingerprint(await readArchived(archive, session.file))).toEqual(fingerprint(await fileBytes(session.file)));

    // A transcript shorter than the head the archive checks: it grows (an append), then one of the bytes it gained
    // within that head changes (a rewrite).
    const tiny = join(project.dir, `${seededUuid('tiny')}.jsonl`);
    const tinyCandidate = () => candidate(tiny, { sessionId: seededUuid('tiny') });
    await writeFile(tiny, '{"type":"summary"}\n');
    await archive.update([tinyCandidate()]);
    await appendFile(tiny, `${metadata('custom-title', { customTitle: 'Tiny', sessionId: seededUuid('tiny') })}\n`);
    expect(await archive.update([tinyCandidate()])).toMatchObject({ filesArchived: 1, filesRewritten: 0 });
    const grown = await readFile(tiny);
    grown[40] = grown[40] === 0x41 ? 0x42 : 0x41;
    await writeFile(tiny, Buffer.concat([grown, Buffer.from(`${userPrompt('again', { sessionId: seededUuid('tiny') })}\n`)]));
    expect(await archive.update([tinyCandidate()])).toMatchObject({ filesArchived: 1, filesRewritten: 1 });
    expect(fingerprint(await readArchived(archive, tiny))).toEqual(fingerprint(await fileBytes(tiny)));
  });

  it('reads a manifest that kept first bytes as hex, appends to its files, and saves stamps from then on', async () => {
    await archive.update([candidate()]);
    await archive.dispose();
    const manifest = join(archiveDir, 'manifest.json');
    const body = (await readChecksummedJson(manifest, ARCHIVE_MANIFEST_FORMAT, 1e9)) as { files: Record<string, unknown>[] };
    const head = (await fileBytes(session.file)).subarray(0, 256).toString('hex');
    const older = { ...body, files: body.files.map(({ headStamp: _stamp, ...file }) => ({ ...file, head })) };
    await writeChecksummedJsonText(manifest, ARCHIVE_MANIFEST_FORMAT, [JSON.stringify(older)]);

    const reopened = new TranscriptArchive(archiveDir);
    const added = `${userPrompt('after the upgrade', { sessionId: session.sessionId })}\n`;
    await appendFile(session.file, added);
    expect(await reopened.update([candidate()])).toMatchObject({
      filesArchived: 1,
      filesRewritten: 0,
      bytesArchived: Buffer.byteLength(added),
    });
    expect(fingerprint(await readArchived(reopened, session.file))).toEqual(fingerprint(await fileBytes(session.file)));
    await reopened.dispose();
    const saved = await readFile(manifest, 'utf8');
    expect(saved).toContain('"headStamp":"256:');
    expect(saved).not.toContain('"head":');
  });

  it('keeps a transcript Claude Code deleted, and says since when', async () => {
    await archive.update([candidate()]);
    const bytes = await fileBytes(session.file);
    await rm(session.file);
    expect(await archive.update([])).toMatchObject({ filesGone: 1 });
    expect(archive.record(session.file)?.goneSince).toEqual(expect.any(String));
    expect(fingerprint(await readArchived(archive, session.file))).toEqual(fingerprint(bytes));
    expect(archive.totals()).toMatchObject({ sessions: 1, deletedSessions: 1, files: 1 });
  });

  it('archives sub-agent transcripts in both layouts with their meta.json', async () => {
    const agentPath = await project.rawFile(
      `${session.sessionId}/subagents/agent-a1b2c3d4e5f6a7b8c.jsonl`,
      `${userPrompt('Explore the cart', { sessionId: session.sessionId, isSidechain: true, agentId: 'a1b2c3d4e5f6a7b8c' })}\n`,
    );
    await project.rawFile(
      `${session.sessionId}/subagents/agent-a1b2c3d4e5f6a7b8c.meta.json`,
      JSON.stringify({ agentType: 'Explore', description: 'Look around', toolUseId: 'toolu_1' }),
    );
    const siblingPath = await project.rawFile(
      'agent-1234abcd.jsonl',
      `${userPrompt('old style', { sessionId: session.sessionId, isSidechain: true, agentId: '1234abcd' })}\n`,
    );
    await archive.update([
      candidate(),
      candidate(agentPath, { agentId: 'a1b2c3d4e5f6a7b8c', layout: 'subagents-folder' }),
      candidate(siblingPath, { agentId: '1234abcd', layout: 'sibling' }),
    ]);
    expect(archive.record(agentPath)?.meta).toEqual({
      agentType: 'Explore',
      description: 'Look around',
      toolUseId: 'toolu_1',
      parentAgentId: null,
      spawnDepth: null,
    });
    expect(archive.record(siblingPath)).toMatchObject({ layout: 'sibling', agentId: '1234abcd', meta: null });
    for (const path of [agentPath, siblingPath])
      expect(fingerprint(await readArchived(archive, path))).toEqual(fingerprint(await fileBytes(path)));
    expect(archive.totals()).toMatchObject({ sessions: 1, files: 3, deletedSessions: 0 });
  });

  it('keeps the file-history backups that snapshot lines name for memory files, and only those', async () => {
    const memoryFile = join(project.memoryDir, 'feedback_tabs.md');
    const snapshot = metadata('file-history-snapshot', {
      messageId: seededUuid('prompt'),
      isSnapshotUpdate: true,
      snapshot: {
        messageId: seededUuid('prompt'),
        timestamp: '2026-05-01T10:00:00.000Z',
        trackedFileBackups: {
          [memoryFile]: { backupFileName: '8eb0ae4aa547313f@v1', version: 1, backupTime: '2026-05-01T10:00:00.000Z' },
          'src/app.ts': { backupFileName: '1111111111111111@v2', version: 2, backupTime: '2026-05-01T10:00:00.000Z' },
          [join(project.memoryDir, 'new.md')]: { backupFileName: null, version: 1, backupTime: '2026-05-01T10:00:00.000Z' },
          [join(project.memoryDir, '../../escape.md')]: { backupFileName: '2222222222222222@v1', version: 1, backupTime: 'x' },
        },
      },
    });
    await home.rawFile(`file-history/${session.sessionId}/8eb0ae4aa547313f@v1`, '---\nname: tabs\n---\nUse tabs.\n');
    await home.rawFile(`file-history/${session.sessionId}/1111111111111111@v2`, 'export const app = 1;\n');
    await home.rawFile(`file-history/${session.sessionId}/2222222222222222@v1`, 'outside\n');
    // The snapshot line arrives in two halves, across two runs.
    const half = Math.floor(snapshot.length / 2);
    await appendFile(session.file, snapshot.slice(0, half));
    await archive.update([candidate()]);
    expect(archive.fileHistoryBackups()).toEqual([]);
    await appendFile(session.file, `${snapshot.slice(half)}\n`);
    expect(await archive.update([candidate()])).toMatchObject({ backupsArchived: 1 });
    expect(archive.fileHistoryBackups()).toEqual([
      expect.objectContaining({ sessionId: session.sessionId, backupFileName: '8eb0ae4aa547313f@v1', trackedPath: memoryFile }),
    ]);
    await rm(join(home.root, 'file-history'), { recursive: true });
    expect((await archive.readFileHistoryBackup(home.root, session.sessionId, '8eb0ae4aa547313f@v1'))?.toString()).toBe(
      '---\nname: tabs\n---\nUse tabs.\n',
    );
  });

  it('packs many small appends into full frames again', async () => {
    for (let i = 0; i < 40; i++) {
      await appendFile(session.file, `${userPrompt(`step ${i}`, { sessionId: session.sessionId })}\n`);
      await archive.update([candidate()]);
    }
    const record = archive.record(session.file)!;
    expect(record.frames.length).toBeLessThanOrEqual(18);
    expect(fingerprint(await readArchived(archive, session.file))).toEqual(fingerprint(await fileBytes(session.file)));
    expect(await readdir(join(archiveDir, 'transcripts'))).toEqual([record.dataFile]);
  });

  it('rebuilds a lost or damaged manifest from its data files', async () => {
    await appendFile(session.file, `${bigPrompt(session.sessionId, 1_500_000, 'lost')}\n`);
    await archive.update([candidate()]);
    const bytes = await fileBytes(session.file);
    await rm(session.file);
    await archive.update([]);
    await archive.dispose();
    const manifest = join(archiveDir, 'manifest.json');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('"bytes":', '"bytes": '));
    const reopened = new TranscriptArchive(archiveDir);
    expect(fingerprint(await readArchived(reopened, session.file))).toEqual(fingerprint(bytes));
    expect(reopened.record(session.file)).toMatchObject({ sessionId: session.sessionId, slug: project.slug, layout: 'session' });
    await reopened.dispose();
  });

  it('finds a data file cut short by a crash and archives the file again', async () => {
    await appendFile(session.file, `${bigPrompt(session.sessionId, 1_500_000, 'crash')}\n`);
    await archive.update([candidate()]);
    await archive.dispose();
    const record = archive.record(session.file)!;
    await truncate(join(archiveDir, 'transcripts', record.dataFile), record.compressedBytes - 10);
    // Loading only reads; the repair waits for the write lock: the next run keeps the whole frames, then archives anew.
    const reopened = new TranscriptArchive(archiveDir);
    await reopened.load();
    expect(reopened.record(session.file)!.frames.length).toBe(record.frames.length);
    expect(await reopened.update([candidate()])).toMatchObject({ filesArchived: 1, filesRewritten: 1 });
    expect(fingerprint(await readArchived(reopened, session.file))).toEqual(fingerprint(await fileBytes(session.file)));
    await reopened.dispose();
  });

  it('prunes sessions by age and to a size, and does not take a pruned file back unless it changes', async () => {
    const older = await project.session({ start: '2026-01-01T09:00:00.000Z', turns: 2 });
    const olderCandidate = () => candidateFor({ path: older.file, configRoot: home.root, slug: project.slug, sessionId: older.sessionId });
    await archive.update([candidate(), olderCandidate()]);
    expect(archive.totals().sessions).toBe(2);
    expect(await archive.prune(new Date('2026-03-01T00:00:00.000Z'))).toMatchObject({ sessions: 1, files: 1 });
    expect(archive.record(older.file)).toBeNull();
    expect(await archive.update([candidate(), olderCandidate()])).toMatchObject({ filesArchived: 0 });
    await appendFile(older.file, `${userPrompt('resumed', { sessionId: older.sessionId })}\n`);
    expect(await archive.update([candidate(), olderCandidate()])).toMatchObject({ filesArchived: 1 });

    // The resumed session is now the newest: a cap that holds one session keeps it and lets the other go.
    const keep = archive.record(older.file)!.compressedBytes;
    expect(await archive.pruneToSize(keep)).toMatchObject({ sessions: 1 });
    expect(archive.record(session.file)).toBeNull();
    expect(archive.record(older.file)).not.toBeNull();
    expect(archive.totals().compressedBytes).toBeLessThanOrEqual(keep);
  });

  it('deletes one project from the archive', async () => {
    const other = home.project(home.workPath('blog'));
    const post = await other.session({ turns: 1 });
    await archive.update([
      candidate(),
      candidateFor({ path: post.file, configRoot: home.root, slug: other.slug, sessionId: post.sessionId }),
    ]);
    expect(await archive.deleteProject(home.root, other.slug)).toMatchObject({ sessions: 1, files: 1 });
    expect(archive.totals().projects.map((p) => p.slug)).toEqual([project.slug]);
    expect(await readdir(join(archiveDir, 'transcripts'))).toEqual([archive.record(session.file)!.dataFile]);
  });
});
