import { mkdtempSync, readFileSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { appendFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolderTreeWatcher } from '../../../electron/core/watch/FolderTreeWatcher';
import type { FileEvent } from '../../../electron/core/watch/watchedChange';

interface Seen {
  readonly event: FileEvent;
  readonly path: string;
}

/** Inotify watches this process holds (Linux); the test of one watch per folder needs to count them. */
function inotifyWatches(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (!readlinkSync(`/proc/self/fd/${fd}`).includes('inotify')) continue;
      count += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('inotify wd')).length;
    } catch {
      // The descriptor closed while we looked.
    }
  }
  return count;
}

describe.each([
  { mode: 'OS events', usePolling: false },
  { mode: 'polling', usePolling: true },
])('FolderTreeWatcher ($mode)', ({ usePolling }) => {
  let root: string;
  let seen: Seen[];
  let watcher: FolderTreeWatcher;

  /** Resolves once an event matching the predicate has been reported (the test's own timeout bounds the wait). */
  async function until(predicate: (seen: readonly Seen[]) => boolean): Promise<void> {
    while (!predicate(seen)) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  const has = (event: FileEvent, path: string) => (list: readonly Seen[]) => list.some((s) => s.event === event && s.path === path);

  beforeEach(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-tree-watch-')));
    await mkdir(join(root, 'projects', 'one'), { recursive: true });
    await writeFile(join(root, 'projects', 'one', 'old.jsonl'), 'x\n');
    seen = [];
    watcher = new FolderTreeWatcher({
      usePolling,
      pollIntervalMs: 50,
      isIgnored: (path) => path.endsWith('.tmp') || path.endsWith('node_modules'),
      onEvent: (event, path) => seen.push({ event, path }),
    });
    await watcher.follow([root]);
  });

  afterEach(async () => {
    watcher.dispose();
    await rm(root, { recursive: true, force: true });
  });

  it('reports files that appear, change and go, at any depth, but not what was there already', async () => {
    const file = join(root, 'projects', 'one', 'new.jsonl');
    await writeFile(file, 'a\n');
    await until(has('add', file));
    await appendFile(file, 'b\n');
    await until(has('change', file));
    await rm(file);
    await until(has('unlink', file));
    expect(seen.some((s) => s.path.endsWith('old.jsonl'))).toBe(false);
  });

  it('follows a new folder tree and reports everything in it, then everything in it gone', async () => {
    const nested = join(root, 'projects', 'two', 'session', 'subagents');
    const agent = join(nested, 'agent-a1.jsonl');
    await mkdir(nested, { recursive: true });
    await writeFile(agent, 'a\n');
    await until(has('add', agent));
    expect(seen).toContainEqual({ event: 'addDir', path: join(root, 'projects', 'two') });
    // The new folders are watched too: a change deep inside is seen.
    await appendFile(agent, 'b\n');
    await until(has('change', agent));
    await rm(join(root, 'projects', 'two'), { recursive: true });
    await until(has('unlinkDir', join(root, 'projects', 'two')));
    expect(seen).toContainEqual({ event: 'unlink', path: agent });
  });

  it('reports a file renamed over another as a change, and leaves ignored names out', async () => {
    const target = join(root, 'projects', 'one', 'old.jsonl');
    const temp = `${target}.tmp`;
    await writeFile(temp, 'replaced\n');
    await rename(temp, target);
    await mkdir(join(root, 'projects', 'one', 'node_modules'));
    await writeFile(join(root, 'projects', 'one', 'node_modules', 'inside.js'), '');
    await until(has('change', target));
    const marker = join(root, 'projects', 'one', 'marker.jsonl');
    await writeFile(marker, '');
    await until(has('add', marker));
    expect(seen.filter((s) => s.path.includes('.tmp') || s.path.includes('node_modules'))).toEqual([]);
  });

  it('waits for a followed folder that does not exist yet, then follows it', async () => {
    const outsideRoot = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-tree-later-')));
    try {
      const elsewhere = join(outsideRoot, 'auto', 'memory');
      await watcher.follow([root, elsewhere]);
      await mkdir(elsewhere, { recursive: true });
      await writeFile(join(elsewhere, 'topic.md'), '# t\n');
      await until(has('add', join(elsewhere, 'topic.md')));
    } finally {
      await rm(outsideRoot, { recursive: true, force: true });
    }
  });
});

describe.runIf(process.platform === 'linux')('FolderTreeWatcher on Linux', () => {
  it('asks the OS for one watch per folder, not one per file', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-tree-count-')));
    const folders = [join(root, 'a'), join(root, 'a', 'b'), join(root, 'c')];
    for (const folder of folders) await mkdir(folder, { recursive: true });
    for (const folder of folders) for (let i = 0; i < 20; i++) await writeFile(join(folder, `${i}.jsonl`), '');
    const before = inotifyWatches();
    const watcher = new FolderTreeWatcher({ usePolling: false, pollIntervalMs: 50, isIgnored: () => false, onEvent: () => undefined });
    await watcher.follow([root]);
    try {
      // The root and its three folders.
      expect(inotifyWatches() - before).toBe(4);
    } finally {
      watcher.dispose();
      await rm(root, { recursive: true, force: true });
    }
    expect(inotifyWatches()).toBe(before);
  });
});
