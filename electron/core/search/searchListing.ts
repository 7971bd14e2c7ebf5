import type { Dirent } from 'node:fs';

/** One folder a search lists: a project folder's transcripts, or a memory folder's Markdown files. */
export interface ListingJob {
  readonly kind: 'project' | 'memory';
  readonly dir: string;
}

/** One file found by a listing. */
export interface ListedFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** The session a transcript belongs to; null for memory files and 2.0-era sibling agents. */
  readonly sessionId: string | null;
  /** The sub-agent a transcript is; null for main session files and memory files. */
  readonly agentId: string | null;
}

/**
 * Lists one folder with blocking file-system calls. It runs inside the search worker threads (see
 * SearchWorkerPool): a search must stat every transcript before it knows which is newest, and doing
 * that with async calls on the engine's thread cost a promise and a thread-pool hop per file — 200–300 ms
 * for ~4,000 transcripts, more than issue #4 allows for the whole first hit. Blocking calls on the
 * otherwise idle scanner threads do the same work several times faster and keep the engine's thread free.
 *
 * Started from its source text like the scanner, so it must be self-contained: its own locals and Node
 * built-ins only. Its rules are those of catalog/catalogDiscovery.ts, restricted to what a search reads
 * (a unit test holds the two together): `<uuid>.jsonl` sessions (zero-byte ones skipped) with the
 * `agent-*.jsonl` files under `<uuid>/subagents/` (three folders deep at most), `agent-*.jsonl` beside the
 * sessions, and `*.md` files under a memory folder (six folders deep, symlinked entries not followed).
 * Symlinks to transcripts and project sub-folders are followed. Unreadable entries are skipped.
 */
export function listFolderSync(job: ListingJob): ListedFile[] {
  const fs = process.getBuiltinModule('node:fs');
  const { join } = process.getBuiltinModule('node:path');
  const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;
  const SESSION_DIR = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const AGENT_FILE = /^agent-(.+)\.jsonl$/;
  const MAX_AGENT_DEPTH = 3;
  const MAX_MEMORY_DEPTH = 6;
  const out: ListedFile[] = [];

  function entriesOf(dir: string): Dirent[] {
    try {
      return fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
  }

  /** Whether an entry is a folder, following a symlink (the only case that costs a stat). */
  function isFolder(dir: string, entry: Dirent): boolean {
    if (!entry.isSymbolicLink()) return entry.isDirectory();
    try {
      return fs.statSync(join(dir, entry.name)).isDirectory();
    } catch {
      return false;
    }
  }

  /** Adds the file when it is a readable regular file (after symlinks) of at least `minSize` bytes. */
  function add(path: string, sessionId: string | null, agentId: string | null, minSize: number): boolean {
    let stats;
    try {
      stats = fs.statSync(path);
    } catch {
      return false;
    }
    if (!stats.isFile() || stats.size < minSize) return false;
    out.push({ path, size: stats.size, mtimeMs: stats.mtimeMs, sessionId, agentId });
    return true;
  }

  function listAgents(dir: string, sessionId: string, depth: number): void {
    for (const entry of entriesOf(dir)) {
      if (isFolder(dir, entry)) {
        if (depth < MAX_AGENT_DEPTH) listAgents(join(dir, entry.name), sessionId, depth + 1);
        continue;
      }
      const agent = AGENT_FILE.exec(entry.name);
      if (agent) add(join(dir, entry.name), sessionId, agent[1], 0);
    }
  }

  function listProject(dir: string): void {
    const entries = entriesOf(dir);
    const sessionDirs = new Set<string>();
    for (const entry of entries) if (SESSION_DIR.test(entry.name) && isFolder(dir, entry)) sessionDirs.add(entry.name);
    for (const entry of entries) {
      if (SESSION_FILE.test(entry.name)) {
        const sessionId = entry.name.slice(0, -'.jsonl'.length);
        // Zero-byte files are not sessions (Claude Code's own rule), and neither are their sub-agents then.
        if (add(join(dir, entry.name), sessionId, null, 1) && sessionDirs.has(sessionId)) {
          listAgents(join(dir, sessionId, 'subagents'), sessionId, 0);
        }
        continue;
      }
      const agent = AGENT_FILE.exec(entry.name);
      if (agent) add(join(dir, entry.name), null, agent[1], 0);
    }
  }

  function listMarkdown(dir: string, depth: number): void {
    for (const entry of entriesOf(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < MAX_MEMORY_DEPTH) listMarkdown(path, depth + 1);
      else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) add(path, null, null, 0);
    }
  }

  if (job.kind === 'project') listProject(job.dir);
  else listMarkdown(job.dir, 0);
  return out;
}
