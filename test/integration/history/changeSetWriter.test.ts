import { writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CodedError } from '../../../shared/result';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { SafeWriter } from '../../../electron/core/fs/safeWriter';
import { changeSetNotesLog } from '../../../electron/core/changes/changeSetNotes';
import { ChangeSetWriter, type WrittenChangeSet } from '../../../electron/core/changes/changeSetWriter';
import { HistoryStore } from '../../../electron/core/changes/HistoryStore';
import { autoMemoryRoot, type WriteRoot } from '../../../electron/core/changes/writeRoot';

let tmp: string;
let memoryDir: string;
let history: HistoryStore;
let root: WriteRoot;

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'ccmem-change-sets-')));
  memoryDir = join(tmp, 'projects', 'p', 'memory');
  await mkdir(join(memoryDir, 'team'), { recursive: true });
  await writeFile(join(memoryDir, 'MEMORY.md'), '- [A](a.md) — a\n');
  await writeFile(join(memoryDir, 'a.md'), 'A.\n');
  await writeFile(join(memoryDir, 'gone.md'), 'Gone soon.\n');
  history = new HistoryStore(join(tmp, 'data', 'history'));
  root = autoMemoryRoot(memoryDir);
});

afterEach(() => rm(tmp, { recursive: true, force: true }));

async function rejection(promise: Promise<unknown>): Promise<CodedError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CodedError);
  return error as CodedError;
}

/** Safe-writer mechanics that fail the n-th write, and note which versions history held at each write. */
function filesFailingAt(failAt: number | null, seen: string[][] = []): SafeWriter {
  const files = new SafeWriter();
  let writes = 0;
  return Object.assign(Object.create(files) as SafeWriter, {
    write: async (...args: Parameters<SafeWriter['write']>) => {
      writes++;
      const blobs = (await readdir(join(tmp, 'data', 'history', 'blobs'), { recursive: true })).filter((name) => name.length > 3);
      seen.push(blobs.map((name) => name.replace('/', '')));
      if (writes === failAt) throw new Error('EIO: the disk went away');
      return files.write(...args);
    },
  });
}

describe('ChangeSetWriter: one change set', () => {
  it('stores both versions first, writes every file, journals them as one change set with its note, and announces it once', async () => {
    const seen: string[][] = [];
    const writer = new ChangeSetWriter({ history, files: filesFailingAt(null, seen), now: () => Date.parse('2026-05-10T12:00:00.000Z') });
    const events: WrittenChangeSet[] = [];
    writer.onDidWrite((written) => void events.push(written));
    const outcome = await writer.apply({
      root,
      changes: [
        { path: 'a.md', base: contentHash('A.\n'), after: 'A, edited.\n' },
        { path: 'b.md', base: null, after: 'B.\n', mode: 0o600 },
        { path: 'gone.md', base: contentHash('Gone soon.\n'), after: null },
      ],
      cause: 'dream',
      summary: 'Dream job-1: merged',
      sessionId: 'session-1',
    });

    expect(await readFile(join(memoryDir, 'a.md'), 'utf8')).toBe('A, edited.\n');
    expect((await stat(join(memoryDir, 'b.md'))).mode & 0o777).toBe(0o600);
    await expect(stat(join(memoryDir, 'gone.md'))).rejects.toMatchObject({ code: 'ENOENT' });
    // History first: when the first file was written, every version of the change set was already stored.
    expect(seen[0]).toEqual(expect.arrayContaining(['A.\n', 'A, edited.\n', 'B.\n', 'Gone soon.\n'].map((text) => contentHash(text))));
    expect(outcome.written).toEqual([
      { path: 'a.md', event: 'change', hash: contentHash('A, edited.\n') },
      { path: 'b.md', event: 'add', hash: contentHash('B.\n') },
      { path: 'gone.md', event: 'unlink', hash: null },
    ]);
    const entries = await history.changeSet(outcome.changeSetId as string);
    expect(entries.map((e) => [e.folder, e.path, e.before, e.after, e.cause, e.summary])).toEqual([
      [memoryDir, 'a.md', contentHash('A.\n'), contentHash('A, edited.\n'), 'dream', 'Dream job-1: merged'],
      [memoryDir, 'b.md', null, contentHash('B.\n'), 'dream', 'Dream job-1: merged'],
      [memoryDir, 'gone.md', contentHash('Gone soon.\n'), null, 'dream', 'Dream job-1: merged'],
    ]);
    const notes = await changeSetNotesLog(join(tmp, 'data', 'history')).load();
    expect(notes).toEqual([
      {
        v: 1,
        changeSetId: outcome.changeSetId,
        time: '2026-05-10T12:00:00.000Z',
        cause: 'dream',
        sessionId: 'session-1',
        firstSight: false,
        foundAtStartup: false,
        evidence: { kind: 'app-edit', summary: 'Dream job-1: merged' },
      },
    ]);
    expect((await history.readBlob(contentHash('Gone soon.\n'))).toString()).toBe('Gone soon.\n');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ changeSetId: outcome.changeSetId, root, cause: 'dream', written: outcome.written, failed: [] });
  });

  it('stop (the default): a refused file writes nothing at all; a failed write ends the set, and what landed is journaled', async () => {
    const writer = new ChangeSetWriter({ history, files: filesFailingAt(2) });
    const events: WrittenChangeSet[] = [];
    writer.onDidWrite((written) => void events.push(written));
    const refused = await rejection(
      writer.apply({
        root,
        changes: [
          { path: 'a.md', base: contentHash('A.\n'), after: 'A, edited.\n' },
          { path: 'notes.txt', base: null, after: 'not memory' },
        ],
        cause: 'app-edit',
        summary: 'x',
      }),
    );
    expect(refused.code).toBe('INVALID_INPUT');
    expect(await readFile(join(memoryDir, 'a.md'), 'utf8')).toBe('A.\n');
    expect(await history.load()).toEqual([]);

    await expect(
      writer.apply({
        root,
        changes: [
          { path: 'a.md', base: contentHash('A.\n'), after: 'A, edited.\n' },
          { path: 'b.md', base: null, after: 'B.\n' },
        ],
        cause: 'app-edit',
        summary: 'x',
      }),
    ).rejects.toThrow('EIO');
    expect(await readFile(join(memoryDir, 'a.md'), 'utf8')).toBe('A, edited.\n');
    expect((await history.load()).map((e) => e.path)).toEqual(['a.md']);
    expect(events.map((e) => e.written.map((file) => file.path))).toEqual([['a.md']]);
  });

  it('skip: each refused, changed or failing file is reported with its error, and the others land', async () => {
    const writer = new ChangeSetWriter({ history, files: filesFailingAt(2) });
    await writeFile(join(memoryDir, 'gone.md'), 'Changed meanwhile.\n');
    const outcome = await writer.apply({
      root,
      changes: [
        { path: 'team/keys.md', base: null, after: 'Deploy as AKIAQ3EGRSLPZ7TNVKXM.\n' },
        { path: 'gone.md', base: contentHash('Gone soon.\n'), after: null },
        { path: 'a.md', base: contentHash('A.\n'), after: 'A, edited.\n' },
        { path: 'b.md', base: null, after: 'B.\n' },
        { path: 'c.md', base: null, after: 'C.\n' },
      ],
      cause: 'extraction',
      summary: 'x',
      failures: 'skip',
    });
    expect(outcome.written.map((file) => file.path)).toEqual(['a.md', 'c.md']);
    expect(outcome.failed.map((file) => [file.path, file.error.code])).toEqual([
      ['team/keys.md', 'FORBIDDEN'],
      ['gone.md', 'CONFLICT'],
      ['b.md', 'INTERNAL'],
    ]);
    expect(outcome.failed[0].error.details).toEqual({ secrets: [{ line: 1, kind: 'aws' }] });
    expect((await history.changeSet(outcome.changeSetId as string)).map((e) => e.path)).toEqual(['a.md', 'c.md']);
    await expect(readdir(join(memoryDir, 'team'))).resolves.toEqual([]);
  });

  it('keeps in history a version another program wrote while the change was landing', async () => {
    const foreign = 'Claude Code wrote this in the same instant.\n';
    const writer = new ChangeSetWriter({
      history,
      // Told just before the file lands: another program writes first.
      onOwnWrite: (path) => writeFileSync(path, foreign),
    });
    const error = await rejection(
      writer.apply({ root, changes: [{ path: 'a.md', base: contentHash('A.\n'), after: 'Ours.\n' }], cause: 'app-edit', summary: 'x' }),
    );
    expect(error.code).toBe('CONFLICT');
    expect(await readFile(join(memoryDir, 'a.md'), 'utf8')).toBe(foreign);
    expect((await history.readBlob(contentHash(foreign))).toString()).toBe(foreign);
    expect(await history.load()).toEqual([]);
  });

  it('refuses a team file over 250,000 bytes and anything that looks like a secret there; private memory takes both', async () => {
    const writer = new ChangeSetWriter({ history });
    const big = 'x'.repeat(250_001);
    const secret = 'Push with ghp_R8bX2kLq9ZtW4mN7vYc1Hs5Jd3Fg6Pa0Ue2T.\n';
    const apply = (path: string, after: string) =>
      writer.apply({ root, changes: [{ path, base: null, after }], cause: 'app-edit', summary: 'x' });
    expect((await rejection(apply('team/big.md', big))).code).toBe('INVALID_INPUT');
    expect((await rejection(apply('TEAM/secret.md', secret))).code).toBe('FORBIDDEN');
    expect((await rejection(apply('team/secret.md', secret))).code).toBe('FORBIDDEN');
    await apply('big.md', big);
    await apply('secret.md', secret);
    expect((await readdir(memoryDir)).sort()).toEqual(['MEMORY.md', 'a.md', 'big.md', 'gone.md', 'secret.md', 'team']);
  });
});

describe('ChangeSetWriter: a root for a file that is not memory', () => {
  it('changes exactly the listed files (a settings file), recorded in history under its folder, and can put them back', async () => {
    const configRoot = join(tmp, 'claude');
    await mkdir(configRoot, { recursive: true });
    const before = '{\n  "autoDreamEnabled": true\n}\n';
    await writeFile(join(configRoot, 'settings.json'), before);
    const settingsRoot: WriteRoot = {
      dir: configRoot,
      boundary: configRoot,
      writable: { kind: 'listed', paths: ['settings.json'] },
      shared: null,
    };
    const writer = new ChangeSetWriter({ history });
    const after = '{\n  "autoDreamEnabled": false\n}\n';
    const changed = await writer.apply({
      root: settingsRoot,
      changes: [{ path: 'settings.json', base: contentHash(before), after }],
      cause: 'app-edit',
      summary: 'Turned off auto-dream',
    });
    expect(await readFile(join(configRoot, 'settings.json'), 'utf8')).toBe(after);
    const [entry] = await history.changeSet(changed.changeSetId as string);
    expect(entry).toMatchObject({ folder: configRoot, path: 'settings.json', before: contentHash(before), after: contentHash(after) });
    for (const path of ['settings.local.json', 'x.md', 'projects/p/memory/a.md', '.consolidate-lock'])
      expect((await rejection(writer.readCurrent(settingsRoot, path))).code, path).toBe('INVALID_INPUT');
    // Undo: the version history kept goes back, based on the one now on disk.
    await writer.apply({
      root: settingsRoot,
      changes: [{ path: 'settings.json', base: entry.after, after: await history.readBlob(entry.before as string) }],
      cause: 'app-edit',
      summary: 'Undid: Turned off auto-dream',
    });
    expect(await readFile(join(configRoot, 'settings.json'), 'utf8')).toBe(before);
  });
});
