import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ABSENT, contentHash } from '../../../electron/core/fs/contentHash';
import { SafeWriter } from '../../../electron/core/fs/safeWriter';
import type { MemoryConflictDetails } from '../../../shared/memory/memoryReview';
import { CodedError } from '../../../shared/result';
import { snapshotTree } from '../../fixtures/treeSnapshot';

let tmp: string;
let root: string;
const ownWrites: string[] = [];
const writer = new SafeWriter({ onOwnWrite: (path) => ownWrites.push(path) });

async function rejection(promise: Promise<unknown>): Promise<CodedError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CodedError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'ccmem-writer-'));
  root = join(tmp, 'projects', 'p', 'memory');
  await mkdir(root, { recursive: true });
  ownWrites.length = 0;
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('SafeWriter: writes', () => {
  it('creates a file (base absent), replaces it atomically (base hash), keeps its mode, leaves no temp files', async () => {
    const created = await writer.write(root, 'team/a.md', 'one', ABSENT);
    expect(await readFile(join(root, 'team', 'a.md'), 'utf8')).toBe('one');
    expect(created.hash).toBe(contentHash('one'));
    await chmod(join(root, 'team', 'a.md'), 0o640);
    await writer.write(root, 'team/a.md', 'two', created.hash);
    expect(await readFile(join(root, 'team', 'a.md'), 'utf8')).toBe('two');
    expect((await stat(join(root, 'team', 'a.md'))).mode & 0o777).toBe(0o640);
    expect(await readdir(join(root, 'team'))).toEqual(['a.md']);
    expect(ownWrites).toEqual([join(root, 'team', 'a.md'), join(root, 'team', 'a.md')]);
  });

  it('refuses with CONFLICT and both versions when the file changed since it was read', async () => {
    await writeFile(join(root, 'a.md'), 'theirs');
    const error = await rejection(writer.write(root, 'a.md', 'mine', contentHash('what I saw')));
    expect(error.code).toBe('CONFLICT');
    const details = error.details as MemoryConflictDetails;
    expect(details).toEqual({
      relativePath: 'a.md',
      baseHash: contentHash('what I saw'),
      currentHash: contentHash('theirs'),
      currentText: 'theirs',
    });
    expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('theirs');
    expect((await rejection(writer.write(root, 'a.md', 'mine', ABSENT))).code).toBe('CONFLICT');
  });

  it('keeps a foreign version that lands just before its commit in history, though it stays on disk', async () => {
    await writeFile(join(root, 'a.md'), 'base');
    const foreign = 'Claude Code wrote this between our check and our commit';
    const kept: string[] = [];
    // onOwnWrite runs after the base check and just before the commit: the foreign write lands in that gap.
    const racing = new SafeWriter({
      onOwnWrite: (path) => writeFileSync(path, foreign),
      keepDisplaced: async (bytes) => void kept.push(bytes.toString('utf8')),
    });
    expect((await rejection(racing.write(root, 'a.md', 'ours', contentHash('base')))).code).toBe('CONFLICT');
    expect(await readFile(join(root, 'a.md'), 'utf8')).toBe(foreign);
    // A writer that read the path while it was moved aside may write over the version put back: history has it.
    expect(kept).toEqual([foreign]);
    expect(await readdir(root)).toEqual(['a.md']);
  });

  it('removes only a file that is still what the caller saw', async () => {
    await writeFile(join(root, 'a.md'), 'x');
    expect((await rejection(writer.remove(root, 'a.md', contentHash('y')))).code).toBe('CONFLICT');
    await writer.remove(root, 'a.md', contentHash('x'));
    expect(await readdir(root)).toEqual([]);
  });
});

describe('SafeWriter: refusals (nothing is written)', () => {
  it.each([
    ['../escape.md', 'OUTSIDE_ROOT'],
    ['a/../../escape.md', 'OUTSIDE_ROOT'],
    ['/etc/x.md', 'OUTSIDE_ROOT'],
    ['.consolidate-lock', 'INVALID_INPUT'],
    ['notes.txt', 'INVALID_INPUT'],
    ['MEMORY', 'INVALID_INPUT'],
  ])('refuses %s with %s', async (path, code) => {
    const before = await snapshotTree(tmp);
    expect((await rejection(writer.write(root, path, 'x', ABSENT))).code).toBe(code);
    expect(await snapshotTree(tmp)).toEqual(before);
  });

  it('never writes through a symlinked file, a symlinked folder, or a memory folder that links elsewhere', async () => {
    const outside = join(tmp, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'target.md'), 'precious');
    await symlink(join(outside, 'target.md'), join(root, 'link.md'));
    await symlink(outside, join(root, 'linked-dir'));
    const linkedRoot = join(tmp, 'projects', 'q', 'memory');
    await mkdir(join(tmp, 'projects', 'q'));
    await symlink(outside, linkedRoot);
    const before = await snapshotTree(tmp);
    expect((await rejection(writer.write(root, 'link.md', 'x', contentHash('precious')))).code).toBe('OUTSIDE_ROOT');
    expect((await rejection(writer.write(root, 'linked-dir/new.md', 'x', ABSENT))).code).toBe('OUTSIDE_ROOT');
    expect((await rejection(writer.remove(root, 'link.md', contentHash('precious')))).code).toBe('OUTSIDE_ROOT');
    expect((await rejection(writer.write(linkedRoot, 'new.md', 'x', ABSENT))).code).toBe('OUTSIDE_ROOT');
    expect(await readFile(join(outside, 'target.md'), 'utf8')).toBe('precious');
    expect(await snapshotTree(tmp)).toEqual(before);
  });
});

describe('SafeWriter: the dream lock', () => {
  let holder: ChildProcess;
  beforeAll(() => {
    holder = spawn('sleep', ['60'], { stdio: 'ignore' });
  });
  afterAll(() => {
    holder.kill();
  });

  it('refuses with LOCK_HELD while a live process younger than an hour holds the lock', async () => {
    await writeFile(join(root, '.consolidate-lock'), String(holder.pid));
    const error = await rejection(writer.write(root, 'a.md', 'x', ABSENT));
    expect(error.code).toBe('LOCK_HELD');
    expect(error.message).toContain(String(holder.pid));
    expect(await readdir(root)).toEqual(['.consolidate-lock']);
  });

  it('writes when the holder is dead or the lock is older than an hour, and leaves the lock alone', async () => {
    const lock = join(root, '.consolidate-lock');
    await writeFile(lock, '2147483646');
    await writer.write(root, 'a.md', 'x', ABSENT);
    await writeFile(lock, String(holder.pid));
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(lock, old, old);
    const lockMtime = (await stat(lock)).mtimeMs;
    await writer.write(root, 'b.md', 'y', ABSENT);
    expect(await readFile(lock, 'utf8')).toBe(String(holder.pid));
    expect((await stat(lock)).mtimeMs).toBe(lockMtime);
  });
});
