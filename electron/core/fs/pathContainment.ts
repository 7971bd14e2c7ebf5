import { promises as fs } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { errnoCode } from './errno';

/**
 * Resolves a path given relative to `root` and returns it only when it stays strictly inside `root`
 * (after normalising `..` and separators); anything else — absolute paths, escapes, the root itself,
 * NUL bytes — yields null. Symlinks are checked separately against the real file system.
 */
export function resolveInside(root: string, relativePath: string): string | null {
  if (relativePath === '' || relativePath.includes('\0') || isAbsolute(relativePath) || /^[A-Za-z]:/.test(relativePath)) return null;
  const base = resolve(root);
  const target = resolve(base, relativePath);
  if (!target.startsWith(base.endsWith(sep) ? base : base + sep)) return null;
  const back = relative(base, target);
  if (back === '' || back.split(sep).includes('..') || isAbsolute(back)) return null;
  return target;
}

/** Whether `path` is `root` or lies below it (both already resolved, e.g. real paths). */
export function isWithin(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** More symlinks than this on one path is a loop (Linux gives up at 40). */
const MAX_LINK_HOPS = 40;

/**
 * Where `path` really leads, whether or not it exists yet: every symlink on the way is followed — a dangling one
 * too, since creating the path would create its target — and the missing rest is appended to the real path of the
 * deepest folder that exists. Null for a symlink loop or a path the system cannot resolve (NUL, too long).
 */
export async function realPathOf(path: string): Promise<string | null> {
  if (path.includes('\0')) return null;
  let current = resolve(path);
  const missing: string[] = [];
  for (let hops = 0; hops <= MAX_LINK_HOPS;) {
    try {
      return join(await fs.realpath(current), ...missing);
    } catch (error) {
      const code = errnoCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return null;
    }
    const stats = await fs.lstat(current).catch(() => null);
    if (stats?.isSymbolicLink()) {
      // A dangling link: where it points is where a write through it would land. Its folder exists (the link is
      // in it), so a relative target is taken from that folder's real path, as the kernel would.
      current = resolve(await fs.realpath(dirname(current)), await fs.readlink(current));
      hops++;
      continue;
    }
    const parent = dirname(current);
    if (parent === current) return join(current, ...missing);
    missing.unshift(basename(current));
    current = parent;
  }
  return null;
}

/**
 * Whether `path` really lies inside `boundary` (or is it), both followed through every symlink: a folder reached
 * through a link that leads elsewhere is outside, whatever its name says.
 */
export async function isReallyWithin(boundary: string, path: string): Promise<boolean> {
  const [realBoundary, realPath] = await Promise.all([realPathOf(boundary), realPathOf(path)]);
  return realBoundary !== null && realPath !== null && isWithin(realBoundary, realPath);
}
