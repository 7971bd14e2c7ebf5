import { isAbsolute, relative, resolve, sep } from 'node:path';

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
