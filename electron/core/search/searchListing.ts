import type { Dirent } from 'node:fs';

/**
 * One folder a search lists: a project folder's transcripts, or a memory folder's Markdown files down to `maxDepth`
 * folders (the one depth every memory-folder walk uses, `MAX_MEMORY_FOLDER_DEPTH`, handed in because this code runs
 * from its source text and cannot import it).
 */
export type ListingJob =
  { readonly kind: 'project'; readonly dir: string } | { readonly kind: 'memory'; readonly dir: string; readonly maxDepth: number };

/**
 * What a listed file is: a transcript (a session or a sub-agent), a tool's full output that Claude Code spilled to
 * `<session>/tool-results/`, a session's `session-memory/summary.md`, or a Markdown file of a memory folder.
 */
export type ListedRole = 'transcript' | 'tool-output' | 'session-memory' | 'memory';

/** One file found by a listing. */
export interface ListedFile {
  readonly role: ListedRole;
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
 * built-ins only. Its transcript rules are those of catalog/catalogDiscovery.ts (a unit test holds the two
 * together): `<uuid>.jsonl` sessions with the `agent-*.jsonl` files under `<uuid>/subagents/` (three folders deep
 * at most), also of a `<uuid>/` folder whose session file is gone, and `agent-*.jsonl` beside the sessions. Beyond
 * the catalog it lists what a search also reads: spilled tool outputs (`<uuid>/tool-results/*`, text files only),
 * session memory (`<uuid>/session-memory/summary.md`), and `*.md` files under a memory folder (`maxDepth` folders deep,
 * symlinked entries not followed). Symlinks to transcripts and project sub-folders are followed. Unreadable
 * entries are skipped.
 */
export function listFolderSync(job: ListingJob): ListedFile[] {
  const fs = process.getBuiltinModule('node:fs');
  const { join } = process.getBuiltinModule('node:path');
  const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;
  const SESSION_DIR = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const AGENT_FILE = /^agent-(.+)\.jsonl$/;
  /** Spilled outputs are `.txt` (shell, fetch) or `.json` (MCP tools); images are not text to search. */
  const TOOL_OUTPUT_FILE = /\.(?:txt|json)$/i;
  const MAX_AGENT_DEPTH = 3;
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

  /** Adds the file when it is a readable regular file (after symlinks). */
  function add(role: ListedRole, path: string, sessionId: string | null, agentId: string | null): boolean {
    let stats;
    try {
      stats = fs.statSync(path);
    } catch {
      return false;
    }
    if (!stats.isFile()) return false;
    out.push({ role, path, size: stats.size, mtimeMs: stats.mtimeMs, sessionId, agentId });
    return true;
  }

  function listAgents(dir: string, sessionId: string, depth: number): void {
    for (const entry of entriesOf(dir)) {
      if (isFolder(dir, entry)) {
        if (depth < MAX_AGENT_DEPTH) listAgents(join(dir, entry.name), sessionId, depth + 1);
        continue;
      }
      const agent = AGENT_FILE.exec(entry.name);
      if (agent) add('transcript', join(dir, entry.name), sessionId, agent[1]);
    }
  }

  /** What a session folder holds besides its sub-agents: spilled tool outputs and session memory. */
  function listSessionFolder(dir: string, sessionId: string): void {
    const toolResults = join(dir, 'tool-results');
    for (const entry of entriesOf(toolResults)) {
      if (TOOL_OUTPUT_FILE.test(entry.name)) add('tool-output', join(toolResults, entry.name), sessionId, null);
    }
    add('session-memory', join(dir, 'session-memory', 'summary.md'), sessionId, null);
  }

  function listProject(dir: string): void {
    const entries = entriesOf(dir);
    const sessionDirs = new Set<string>();
    for (const entry of entries) if (SESSION_DIR.test(entry.name) && isFolder(dir, entry)) sessionDirs.add(entry.name);
    const sessionFiles = new Set<string>();
    for (const entry of entries) {
      if (SESSION_FILE.test(entry.name)) {
        const sessionId = entry.name.slice(0, -'.jsonl'.length);
        if (add('transcript', join(dir, entry.name), sessionId, null)) sessionFiles.add(sessionId);
        continue;
      }
      const agent = AGENT_FILE.exec(entry.name);
      if (agent) add('transcript', join(dir, entry.name), null, agent[1]);
    }
    // A session folder is read with its session, or on its own when the session file is gone (its sub-agents stay).
    for (const sessionId of sessionDirs) {
      const folder = join(dir, sessionId);
      const before = out.length;
      listAgents(join(folder, 'subagents'), sessionId, 0);
      if (!sessionFiles.has(sessionId) && out.length === before) continue;
      listSessionFolder(folder, sessionId);
    }
  }

  function listMarkdown(dir: string, depth: number, maxDepth: number): void {
    for (const entry of entriesOf(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < maxDepth) listMarkdown(path, depth + 1, maxDepth);
      else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) add('memory', path, null, null);
    }
  }

  if (job.kind === 'project') listProject(job.dir);
  else listMarkdown(job.dir, 0, job.maxDepth);
  return out;
}
