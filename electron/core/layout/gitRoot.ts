import { dirname, isAbsolute, join, resolve } from 'node:path';
import { readSmallText, statOrNull } from '../fs/readSafely';

const MAX_GIT_FILE_BYTES = 4096;

/**
 * The canonical git root of a folder as Claude Code finds it for auto memory (`findCanonicalGitRoot`): the nearest
 * folder at or above it that holds `.git`; for a worktree (whose `.git` is a file pointing into the main
 * repository's `.git/worktrees/<name>`), the main repository's folder. Null outside a repository. Reads only.
 */
export async function canonicalGitRoot(path: string): Promise<string | null> {
  let current = resolve(path);
  for (;;) {
    const git = join(current, '.git');
    const stats = await statOrNull(git);
    if (stats?.isDirectory()) return current;
    if (stats?.isFile()) return (await mainRepositoryOf(git, current)) ?? current;
    const parent = dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

/** `gitdir: <main>/.git/worktrees/<name>` → `<main>`; null when the file says something else. */
async function mainRepositoryOf(gitFile: string, worktree: string): Promise<string | null> {
  try {
    const text = await readSmallText(gitFile, MAX_GIT_FILE_BYTES);
    const gitDir = /^gitdir:\s*(.+)$/m.exec(text)?.[1]?.trim();
    if (!gitDir) return null;
    const absolute = isAbsolute(gitDir) ? gitDir : resolve(worktree, gitDir);
    const marker = /[\\/]\.git[\\/]worktrees[\\/][^\\/]+[\\/]?$/.exec(absolute);
    return marker ? absolute.slice(0, marker.index) : null;
  } catch {
    return null;
  }
}
