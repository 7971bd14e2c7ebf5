import { promises as fs } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { posix } from 'node:path';

/** The virtual folder through which the model reads the project's transcripts (read-only). */
export const TRANSCRIPTS_ALIAS = '@transcripts';

const MAX_PATH_LENGTH = 1024;

export type ToolPath =
  | { readonly area: 'memory'; readonly rel: string }
  | { readonly area: 'transcripts'; readonly rel: string }
  | { readonly area: 'refused'; readonly reason: string };

export interface ToolRoots {
  readonly memoryDir: string;
  readonly transcriptDir: string | null;
  /**
   * Transcript folders of other projects that use the same memory folder (sessions started in a sub-folder of a
   * repository use its root's memory), by project folder name: read as `@transcripts/<name>/`.
   */
  readonly linkedTranscriptDirs?: Readonly<Record<string, string>>;
}

/** The real folder a transcripts-area path lies in, and the path inside it. */
export function transcriptRootOf(rel: string, roots: ToolRoots): { readonly root: string | null; readonly rel: string } {
  const [first, ...rest] = rel.split('/');
  const linked = roots.linkedTranscriptDirs?.[first];
  return linked !== undefined && first !== '' ? { root: linked, rel: rest.join('/') } : { root: roots.transcriptDir, rel };
}

function inside(root: string, absolute: string): string | null {
  const rel = relative(root, absolute);
  if (rel === '') return '';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return rel.split(sep).join('/');
}

/**
 * Resolves a path the model gave a tool: relative to the memory folder, or under `@transcripts/`. Absolute
 * paths are accepted only inside one of those two folders; `..` that leaves them, backslashes and NUL are refused.
 * The result is normalised ('' is the folder itself).
 */
export function resolveToolPath(raw: unknown, roots: ToolRoots): ToolPath {
  if (typeof raw !== 'string') return { area: 'refused', reason: 'path must be a string' };
  const input = raw.trim();
  if (input.length > MAX_PATH_LENGTH) return { area: 'refused', reason: 'path is too long' };
  if (input.includes('\0')) return { area: 'refused', reason: 'path contains a NUL character' };
  if (input.includes('\\')) return { area: 'refused', reason: 'use forward slashes in paths' };
  let area: 'memory' | 'transcripts' = 'memory';
  let rest = input;
  if (input === TRANSCRIPTS_ALIAS || input.startsWith(`${TRANSCRIPTS_ALIAS}/`)) {
    area = 'transcripts';
    rest = input.slice(TRANSCRIPTS_ALIAS.length + 1);
  } else if (isAbsolute(input)) {
    const inMemory = inside(roots.memoryDir, input);
    let inTranscripts = roots.transcriptDir && inMemory === null ? inside(roots.transcriptDir, input) : null;
    for (const [name, dir] of Object.entries(roots.linkedTranscriptDirs ?? {})) {
      if (inMemory !== null || inTranscripts !== null) break;
      const within = inside(dir, input);
      if (within !== null) inTranscripts = within === '' ? name : `${name}/${within}`;
    }
    if (inMemory !== null) rest = inMemory;
    else if (inTranscripts !== null) {
      area = 'transcripts';
      rest = inTranscripts;
    } else return { area: 'refused', reason: 'outside the memory folder' };
  }
  const normalized = posix.normalize(rest === '' ? '.' : rest);
  if (normalized === '..' || normalized.startsWith('../') || posix.isAbsolute(normalized)) {
    return { area: 'refused', reason: 'outside the memory folder' };
  }
  const rel = normalized === '.' ? '' : normalized.replace(/\/+$/, '');
  if (area === 'transcripts' && roots.transcriptDir === null) return { area: 'refused', reason: 'this memory has no transcript folder' };
  return { area, rel };
}

/** The absolute path of a resolved tool path. */
export function absoluteToolPath(path: { readonly area: 'memory' | 'transcripts'; readonly rel: string }, roots: ToolRoots): string {
  const where = path.area === 'memory' ? { root: roots.memoryDir, rel: path.rel } : transcriptRootOf(path.rel, roots);
  const root = where.root ?? roots.memoryDir;
  return where.rel === '' ? root : join(root, ...where.rel.split('/'));
}

/** The first symlink on the way from `root` down to `rel` (the root itself is trusted), or null. */
export async function symlinkOnPath(root: string, rel: string): Promise<string | null> {
  let current = root;
  for (const segment of rel.split('/').filter(Boolean)) {
    current = join(current, segment);
    const stats = await fs.lstat(current).catch(() => null);
    if (!stats) return null;
    if (stats.isSymbolicLink()) return current;
  }
  return null;
}
