/**
 * Text edits of a MEMORY.md index that keep every other byte: add a pointer line, drop the pointer lines of
 * a pruned file, make pointers follow a renamed file. Line endings follow the index's own style.
 */
import { parseIndex, pointerLine } from './memoryIndex';

function newlineOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** The link target for `relativePath` as written in an index living in `indexFolder` ('' or 'team'). */
export function targetFromIndex(indexFolder: string, relativePath: string): string {
  if (!indexFolder) return relativePath;
  const prefix = `${indexFolder}/`;
  if (relativePath.startsWith(prefix)) return relativePath.slice(prefix.length);
  return `${'../'.repeat(indexFolder.split('/').length)}${relativePath}`;
}

/** Appends `- [title](file.md) — hook` at the end of the index (after its last line, keeping a final newline). */
export function appendPointer(indexText: string, indexFolder: string, relativePath: string, title: string, hook: string): string {
  const newline = newlineOf(indexText);
  const line = pointerLine(title, targetFromIndex(indexFolder, relativePath), hook);
  if (indexText === '' || /^\uFEFF?$/.test(indexText)) return `${indexText}${line}${newline}`;
  const endsWithNewline = indexText.endsWith('\n');
  return `${indexText}${endsWithNewline ? '' : newline}${line}${newline}`;
}

/** Splits text into lines that keep their own terminators, so joining them gives the text back byte for byte. */
function splitKeepingEnds(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * Removes every pointer line whose only memory link is `relativePath`. Lines that also point elsewhere stay
 * (the user decides; the dangling link is then reported). Returns the text unchanged when nothing points there.
 */
export function removePointersTo(indexText: string, indexFolder: string, relativePath: string): { text: string; removed: number } {
  const parsed = parseIndex(indexText, indexFolder);
  const drop = new Set<number>();
  for (const line of parsed.lines) {
    if (line.kind !== 'pointer') continue;
    const targets = parsed.links.filter((l) => l.line === line.line && l.resolved !== null).map((l) => l.resolved);
    if (targets.length > 0 && targets.every((t) => t === relativePath)) drop.add(line.line);
  }
  if (drop.size === 0) return { text: indexText, removed: 0 };
  const kept = splitKeepingEnds(indexText).filter((_, index) => !drop.has(index + 1));
  return { text: kept.join(''), removed: drop.size };
}

/** Rewrites the target of every link that resolves to `from` so it points at `to`; titles and hooks stay as written. */
export function retargetPointers(indexText: string, indexFolder: string, from: string, to: string): { text: string; changed: number } {
  const parsed = parseIndex(indexText, indexFolder);
  const byLine = new Map<number, string[]>();
  for (const link of parsed.links) {
    if (link.resolved !== from) continue;
    byLine.set(link.line, [...(byLine.get(link.line) ?? []), link.target]);
  }
  if (byLine.size === 0) return { text: indexText, changed: 0 };
  const newTarget = targetFromIndex(indexFolder, to);
  const written = /[\s()<>]/.test(newTarget) ? `<${newTarget}>` : newTarget;
  let changed = 0;
  const lines = splitKeepingEnds(indexText).map((lineText, index) => {
    const targets = byLine.get(index + 1);
    if (!targets) return lineText;
    let out = lineText;
    for (const target of targets) {
      // Replace inside the link's parentheses only, so a title that happens to contain the name stays as written.
      const pattern = new RegExp(`\\]\\(\\s*<?${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}>?`, 'g');
      out = out.replace(pattern, (match) => {
        changed++;
        return match.slice(0, match.indexOf('(') + 1) + written;
      });
    }
    return out;
  });
  return { text: lines.join(''), changed };
}
