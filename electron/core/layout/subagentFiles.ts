import { promises as fs, statSync, type Dirent } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { SubagentLayout } from '../../../shared/transcript/transcriptOutline';
import { yieldWhenSliceIsUsed } from '../async/timeSlices';
import { readHeadSync, readSmallTextSync } from '../fs/readSafely';

const AGENT_FILE = /^agent-(.+)\.jsonl$/;
const MAX_META_BYTES = 64 * 1024;
/**
 * A sibling agent file names its session near the start of its first line: the first read is short, and only a file
 * whose first line puts other fields first (none seen) is read further.
 */
const SIBLING_FIRST_READ_BYTES = 4 * 1024;
const SIBLING_HEAD_BYTES = 64 * 1024;
const SESSION_ID_FIELD = /"sessionId"\s*:\s*"([0-9a-fA-F-]{36})"/;

/** The `agent-<id>.meta.json` sidecar (Claude Code ≥ 2.1.8x); unknown keys are ignored. */
export interface SubagentMeta {
  readonly agentType: string | null;
  readonly description: string | null;
  readonly toolUseId: string | null;
  /** The agent whose Agent call started this one (nested sub-agents, 2.1.172+). */
  readonly parentAgentId: string | null;
  /** 1 for an agent the session started, 2 for one its agent started, … (2.1.187+). */
  readonly spawnDepth: number | null;
}

export interface SubagentFile {
  readonly agentId: string;
  readonly path: string;
  readonly layout: Exclude<SubagentLayout, 'inline'>;
  readonly meta: SubagentMeta | null;
}

/**
 * The `.meta.json` beside a sub-agent transcript, as far as it can be read (it is optional). Read with blocking calls:
 * a session's subagents folder can hold hundreds (1,324 in the bench's largest), and through the thread pool their
 * reads cost four times as long; callers reading many yield between them.
 */
export function readMetaSync(jsonlPath: string): SubagentMeta | null {
  try {
    const value: unknown = JSON.parse(readSmallTextSync(jsonlPath.replace(/\.jsonl$/, '.meta.json'), MAX_META_BYTES));
    if (!value || typeof value !== 'object') return null;
    const meta = value as Record<string, unknown>;
    const text = (key: string) => (typeof meta[key] === 'string' ? (meta[key] as string) : null);
    const depth = meta.spawnDepth;
    return {
      agentType: text('agentType'),
      description: text('description'),
      toolUseId: text('toolUseId'),
      parentAgentId: text('parentAgentId'),
      spawnDepth: typeof depth === 'number' && Number.isInteger(depth) && depth > 0 ? depth : null,
    };
  } catch {
    return null;
  }
}

/**
 * `agent-*.jsonl` files under a folder, at any depth (workflow runs nest them in `workflows/<runId>/`), in path order.
 * Walked folder by folder with entry types: a recursive `readdir` stats every entry to find the folders (~30 ms for
 * 2,648 entries).
 */
async function agentFilesUnder(folder: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...(await agentFilesUnder(path)));
    else if ((entry.isFile() || entry.isSymbolicLink()) && AGENT_FILE.test(entry.name)) found.push(path);
  }
  return found.sort();
}

/** Remembers which session each sibling agent file belongs to, keyed by path and valid for one mtime. */
export type SiblingOwnerCache = Map<string, { readonly mtimeMs: number; readonly sessionId: string | null }>;

/**
 * The session a legacy sibling agent file belongs to: the `sessionId` on its first line. Blocking, like `readMetaSync`:
 * a 2.0 project folder can hold hundreds of sibling files.
 */
function siblingSessionId(path: string, cache: SiblingOwnerCache): string | null {
  try {
    const stats = statSync(path);
    if (!stats.isFile()) return null;
    const cached = cache.get(path);
    if (cached?.mtimeMs === stats.mtimeMs) return cached.sessionId;
    let head = readHeadSync(path, SIBLING_FIRST_READ_BYTES);
    let match = SESSION_ID_FIELD.exec(head.bytes.toString('latin1'));
    if (match === null && head.size > head.bytes.length) {
      head = readHeadSync(path, SIBLING_HEAD_BYTES);
      match = SESSION_ID_FIELD.exec(head.bytes.toString('latin1'));
    }
    const sessionId = match?.[1] ?? null;
    cache.set(path, { mtimeMs: stats.mtimeMs, sessionId });
    return sessionId;
  } catch {
    return null;
  }
}

/**
 * The sub-agent transcripts of one session in the two file layouts (claude-code-state.md §3): 2.1.2+ writes them
 * to `<session>/subagents/` (with `.meta.json` from ~2.1.8x), 2.0.x wrote `agent-<id>.jsonl` beside the session
 * file, naming the session only inside. Inline 1.0 runs live in the session file and are found by its tree.
 */
export async function findSubagentFiles(
  sessionPath: string,
  sessionId: string,
  siblingOwners: SiblingOwnerCache = new Map(),
): Promise<SubagentFile[]> {
  const projectDir = dirname(sessionPath);
  const found: SubagentFile[] = [];
  for (const path of await agentFilesUnder(join(projectDir, sessionId, 'subagents'))) {
    await yieldWhenSliceIsUsed();
    found.push({
      agentId: AGENT_FILE.exec(basename(path))?.[1] ?? basename(path),
      path,
      layout: 'subagents-folder',
      meta: readMetaSync(path),
    });
  }
  let siblings: string[] = [];
  try {
    siblings = (await fs.readdir(projectDir)).filter((name) => AGENT_FILE.test(name)).sort();
  } catch {
    siblings = [];
  }
  for (const name of siblings) {
    await yieldWhenSliceIsUsed();
    const path = join(projectDir, name);
    if (siblingSessionId(path, siblingOwners) !== sessionId) continue;
    found.push({ agentId: AGENT_FILE.exec(name)?.[1] ?? name, path, layout: 'sibling-file', meta: readMetaSync(path) });
  }
  return found;
}
