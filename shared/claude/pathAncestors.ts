/**
 * The path itself and every ancestor, for POSIX and Windows forms alike (transcripts keep Windows
 * backslashes). `/a/b` → [`/a/b`, `/a`, `/`]; `X:\a\b` → [`X:\a\b`, `X:\a`, `X:\`].
 */
export function pathAndAncestors(path: string): string[] {
  const out: string[] = [];
  let current = path.length > 1 ? path.replace(/[/\\]+$/, '') : path;
  if (current === '') current = path;
  // A drive root keeps its separator: `C:\` (slug `C--`) is not `C:` (slug `C-`).
  if (/^[A-Za-z]:$/.test(current) && path.length > 2) current = path.slice(0, 3);
  for (;;) {
    out.push(current);
    const cut = Math.max(current.lastIndexOf('/'), current.lastIndexOf('\\'));
    if (cut < 0) break;
    const parentEnd = cut === 0 || /^[A-Za-z]:$/.test(current.slice(0, cut)) ? cut + 1 : cut;
    const parent = current.slice(0, parentEnd);
    if (parent === current || parent === '') break;
    current = parent;
  }
  return out;
}
