import { parseArgs } from 'node:util';
import {
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_QUERY_LENGTH,
  SEARCH_HIT_KINDS,
  type SearchHit,
  type SearchHitKind,
  type SearchScope,
} from '../../../shared/model/search';
import { configRootsFromEnv } from '../../core/layout/configRoots';
import { statOrNull } from '../../core/fs/readSafely';
import { agentMemoriesIn, discoverHomePlaces } from '../../core/home/homePlaces';
import { defaultDataDir } from '../../core/home/dataDir';
import { archiveDir } from '../../core/history/archive/archiveDir';
import { TranscriptArchive } from '../../core/history/archive/TranscriptArchive';
import { HomeSearch } from '../../core/search/HomeSearch';
import { memoryFoldersToSearch } from '../../core/search/searchMemoryFolders';
import { CliError, type CliIo } from '../cliIo';

const DEFAULT_CLI_LIMIT = 100;

/** One element of `ccmem search --json`; a stable schema scripts rely on. */
export interface SearchHitJson {
  readonly kind: SearchHitKind;
  readonly sessionId: string | null;
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  readonly preview: string;
  /** The agent whose memory the hit is in (`kind` `agent-memory`), else null. */
  readonly agentType: string | null;
  /** The line records an API request (only with `--request-records`). */
  readonly requestRecord: boolean;
  /** Claude Code deleted the transcript; the hit comes from the app's archived copy. */
  readonly archived: boolean;
}

export function toSearchHitJson(hit: SearchHit): SearchHitJson {
  return {
    kind: hit.kind,
    sessionId: hit.sessionId,
    path: hit.path,
    line: hit.line,
    preview: hit.preview,
    agentType: hit.agentType,
    requestRecord: hit.requestRecord,
    archived: hit.archived,
  };
}

interface FileHit {
  readonly hit: SearchHit;
  /** Its file's modification time as the search ordered files by it. */
  readonly mtimeMs: number;
}

/**
 * Two runs' hits as one search over both sets of files gives them: by file, newest first (ties by path, the order of
 * the search's listing), each file's hits in line order. The sets share no file.
 */
function mergeNewestFirst(a: readonly FileHit[], b: readonly FileHit[]): SearchHit[] {
  const merged: SearchHit[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const takeA = j >= b.length || (i < a.length && (b[j].mtimeMs - a[i].mtimeMs || a[i].hit.path.localeCompare(b[j].hit.path)) <= 0);
    merged.push(takeA ? a[i++].hit : b[j++].hit);
  }
  return merged;
}

/** The paths that are folders (a config root that is missing or a file is not searched, as discovery has it). */
async function existingFolders(paths: readonly string[]): Promise<string[]> {
  const stats = await Promise.all(paths.map((path) => statOrNull(path)));
  return paths.filter((_, index) => stats[index]?.isDirectory() ?? false);
}

/** A `--since`/`--until` day (YYYY-MM-DD, local time) as the first or last moment of that day. */
function dayBound(value: string | undefined, option: string, end: boolean): string | null {
  if (value === undefined) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : null;
  if (!date || date.getDate() !== Number(match?.[3])) throw new CliError(`${option} must be a day as YYYY-MM-DD, not ${value}`, 2);
  if (end) date.setHours(23, 59, 59, 999);
  return date.toISOString();
}

/**
 * `ccmem search <query> [--json] [--limit N] [--request-records] [--project SLUG] [--kind K] [--since DAY] [--until DAY]`:
 * lines of every transcript, spilled tool output, session memory and memory file (projects' and agents') that contain
 * the query, newest file first.
 */
export async function runSearch(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      json: { type: 'boolean', default: false },
      limit: { type: 'string' },
      project: { type: 'string' },
      kind: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      'request-records': { type: 'boolean', default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  const query = positionals.join(' ');
  if (query.trim() === '') throw new CliError('Give the text to search for: ccmem search <query>', 2);
  if (query.length > MAX_SEARCH_QUERY_LENGTH) throw new CliError(`The query is longer than ${MAX_SEARCH_QUERY_LENGTH} characters`, 2);
  const limit = values.limit === undefined ? DEFAULT_CLI_LIMIT : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
    throw new CliError(`--limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}, not ${values.limit}`, 2);
  }
  if (values.kind !== undefined && !(SEARCH_HIT_KINDS as readonly string[]).includes(values.kind)) {
    throw new CliError(`--kind must be one of ${SEARCH_HIT_KINDS.join(', ')}, not ${values.kind}`, 2);
  }
  const changedAfter = dayBound(values.since, '--since', false);
  const changedBefore = dayBound(values.until, '--until', true);
  const dataDir = defaultDataDir(io.env);
  const specs = configRootsFromEnv(io.env);
  // Where every project's memory is, without reading the sessions' titles: a one-shot search needs no more of the home.
  // Placed on this thread while the search threads start and list the project folders, which need only the roots.
  const placed = discoverHomePlaces(specs);
  placed.catch(() => undefined);
  const projects = values.project === undefined ? null : (await placed).projects.filter((p) => p.slug === values.project);
  if (projects?.length === 0) throw new CliError(`no project with the folder name ${values.project}`, 1);
  const scope: SearchScope = {
    projects,
    kinds: values.kind === undefined ? null : [values.kind as SearchHitKind],
    changedAfter,
    changedBefore,
  };
  const archive = new TranscriptArchive(archiveDir(dataDir));
  const search = new HomeSearch({
    archived: () => archive.searchTargets(),
    roots: await existingFolders(specs.map((spec) => spec.path)),
    memoryFolders: async () => {
      const home = await placed;
      return memoryFoldersToSearch(home, await agentMemoriesIn(home));
    },
  });
  // The project folders are read while the projects are placed (they need only the roots), then the memory folders,
  // which need the places; the two runs' hits are merged into the one newest-first order.
  const fromProjects: FileHit[] = [];
  const fromMemory: FileHit[] = [];
  try {
    const options = { limit, scope, includeRequestRecords: values['request-records'] };
    await search.search(query, { ...options, folders: 'projects', onHit: (hit, mtimeMs) => fromProjects.push({ hit, mtimeMs }) });
    await search.search(query, { ...options, folders: 'memory', onHit: (hit, mtimeMs) => fromMemory.push({ hit, mtimeMs }) });
  } finally {
    await search.dispose();
    await archive.dispose();
  }
  const hits = mergeNewestFirst(fromProjects, fromMemory).slice(0, limit);
  if (!values.json) for (const hit of hits) io.stdout(`${hit.path}:${hit.line}:${hit.archived ? ' (archived)' : ''} ${hit.preview}\n`);
  if (values.json) io.stdout(`${JSON.stringify(hits.map(toSearchHitJson), null, 2)}\n`);
  for (const root of (await placed).roots) if (!root.exists) io.stderr(`warning: ${root.path} does not exist\n`);
  return 0;
}
