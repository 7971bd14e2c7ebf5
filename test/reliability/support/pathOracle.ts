/**
 * An independent model of where a path lands, written without node:path so a bug there cannot hide a bug
 * in the code under test. POSIX semantics (this suite runs on Linux): only `/` separates, `..` climbs, a
 * leading `/` is absolute; NUL makes the path unusable. The Windows reading is modelled separately.
 */
export type Landing =
  | { readonly kind: 'invalid' }
  | { readonly kind: 'outside' }
  | { readonly kind: 'root' }
  | { readonly kind: 'inside'; readonly segments: readonly string[] };

function splitPosix(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '' && segment !== '.');
}

/** Where `candidate`, resolved against the absolute POSIX folder `root`, lands relative to `root`. */
export function posixLanding(root: string, candidate: string): Landing {
  if (candidate.includes('\0') || root.includes('\0')) return { kind: 'invalid' };
  const rootSegments = splitPosix(root);
  const stack = candidate.startsWith('/') ? [] : [...rootSegments];
  for (const segment of splitPosix(candidate)) {
    if (segment === '..') stack.pop();
    else stack.push(segment);
  }
  const underRoot = rootSegments.every((segment, index) => stack[index] === segment);
  if (!underRoot || stack.length < rootSegments.length) return { kind: 'outside' };
  if (stack.length === rootSegments.length) return { kind: 'root' };
  return { kind: 'inside', segments: stack.slice(rootSegments.length) };
}

/** The non-empty segments Windows would see in a name joined under a folder (both separators count). */
export function windowsSegments(candidate: string): string[] {
  return candidate.split(/[\\/]+/).filter((segment) => segment !== '' && segment !== '.');
}

/**
 * Whether Windows would read `candidate` as absolute or as climbing out: drive letters, UNC and device
 * paths (`C:\`, `\\server\share`, `\\?\`, `\\.\`), or `..` with either separator. Such a name must never be
 * accepted by code that may run on Windows, even where POSIX reads it as one harmless file name.
 */
export function escapesOnWindows(candidate: string): boolean {
  if (/^[A-Za-z]:/.test(candidate) || /^[\\/]{2}/.test(candidate) || /^[\\/]/.test(candidate)) return true;
  let depth = 0;
  for (const segment of candidate.split(/[\\/]+/)) {
    if (segment === '' || segment === '.') continue;
    depth += segment === '..' ? -1 : 1;
    if (depth < 0) return true;
  }
  return false;
}
