import { basename, sep } from 'node:path';
import { isSessionFileName, sessionIdFromFileName } from '../../../shared/claude/sessionFiles';

export type FileEvent = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';

/** What a changed path means to the app; `other` paths are delivered too, so nothing is silently dropped. */
export type WatchedChange =
  | {
      readonly kind: 'transcript';
      readonly event: FileEvent;
      readonly path: string;
      readonly configRoot: string;
      readonly slug: string;
      readonly sessionId: string;
    }
  | {
      readonly kind: 'subagent-transcript';
      readonly event: FileEvent;
      readonly path: string;
      readonly configRoot: string;
      readonly slug: string;
    }
  | {
      readonly kind: 'project-folder';
      readonly event: FileEvent;
      readonly path: string;
      readonly configRoot: string;
      readonly slug: string;
    }
  | {
      readonly kind: 'memory-file';
      readonly event: FileEvent;
      readonly path: string;
      readonly memoryDir: string;
      readonly relativePath: string;
    }
  | { readonly kind: 'consolidation-lock'; readonly event: FileEvent; readonly path: string; readonly memoryDir: string }
  | { readonly kind: 'settings'; readonly event: FileEvent; readonly path: string }
  | { readonly kind: 'other'; readonly event: FileEvent; readonly path: string };

export const LOCK_FILE_NAME = '.consolidate-lock';

function inside(parent: string, path: string): string | null {
  if (path === parent) return '';
  return path.startsWith(parent + sep) ? path.slice(parent.length + 1) : null;
}

/**
 * Classifies a changed path against the config roots and the known memory folders (which may live
 * outside any root when `autoMemoryDirectory` moves them, or inside a project for agent memory).
 */
export function classifyChange(
  event: FileEvent,
  path: string,
  configRoots: readonly string[],
  memoryDirs: readonly string[],
): WatchedChange {
  // The longest memory folder wins, so `memory/team` style nesting and agent folders resolve precisely.
  const memoryDir = [...memoryDirs].sort((a, b) => b.length - a.length).find((dir) => inside(dir, path) !== null);
  if (memoryDir) {
    const rel = inside(memoryDir, path) ?? '';
    if (rel === LOCK_FILE_NAME) return { kind: 'consolidation-lock', event, path, memoryDir };
    if (rel.toLowerCase().endsWith('.md')) return { kind: 'memory-file', event, path, memoryDir, relativePath: rel.split(sep).join('/') };
    return { kind: 'other', event, path };
  }
  for (const configRoot of configRoots) {
    const rel = inside(configRoot, path);
    if (rel === null) continue;
    if (rel === 'settings.json') return { kind: 'settings', event, path };
    const parts = rel.split(sep);
    if (parts[0] !== 'projects' || parts.length < 2) return { kind: 'other', event, path };
    const slug = parts[1];
    if (parts.length === 2) return { kind: 'project-folder', event, path, configRoot, slug };
    const name = basename(path);
    if (parts.length === 3 && isSessionFileName(name))
      return { kind: 'transcript', event, path, configRoot, slug, sessionId: sessionIdFromFileName(name) };
    if (name.startsWith('agent-') && name.endsWith('.jsonl')) return { kind: 'subagent-transcript', event, path, configRoot, slug };
    return { kind: 'other', event, path };
  }
  return { kind: 'other', event, path };
}

/** Paths that change often and never matter to us: not watched at all, to save watchers and wake-ups. */
const IGNORED_NAMES = new Set([
  'node_modules',
  '.git',
  'file-history',
  'shell-snapshots',
  'todos',
  'statsig',
  'debug',
  'tool-results',
  'ide',
  'telemetry',
  'cache',
]);

export function isIgnoredPath(path: string): boolean {
  return IGNORED_NAMES.has(basename(path)) || basename(path).endsWith('.tmp');
}
