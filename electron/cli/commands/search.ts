import { parseArgs } from 'node:util';
import type { SearchHit, SearchHitKind } from '../../../shared/model/search';
import { MAX_SEARCH_LIMIT, MAX_SEARCH_QUERY_LENGTH } from '../../../shared/catalog/catalogRequestSchemas';
import { configRootsFromEnv } from '../../core/home/configRoots';
import { HomeService } from '../../core/home/HomeService';
import { defaultDataDir } from '../../core/home/dataDir';
import { HomeSearch } from '../../core/search/HomeSearch';
import { searchableMemoryFolders } from '../../core/search/searchMemoryFolders';
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
  };
}

/**
 * `ccmem search <query> [--json] [--limit N] [--request-records]`: lines of every transcript, spilled tool output,
 * session memory and memory file (projects' and agents') that contain the query, newest file first.
 */
export async function runSearch(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      json: { type: 'boolean', default: false },
      limit: { type: 'string' },
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
  const home = new HomeService({
    roots: configRootsFromEnv(io.env),
    dataDir: defaultDataDir(io.env),
    demoHomeSource: null,
    shell: 'cli',
    readOnly: true,
  });
  const snapshot = await home.getHome();
  const search = new HomeSearch({
    roots: snapshot.roots.filter((root) => root.exists).map((root) => root.path),
    memoryFolders: () => searchableMemoryFolders(home),
  });
  const hits: SearchHit[] = [];
  try {
    await search.search(query, {
      limit,
      includeRequestRecords: values['request-records'],
      onHit: (hit) => {
        if (values.json) hits.push(hit);
        else io.stdout(`${hit.path}:${hit.line}: ${hit.preview}\n`);
      },
    });
  } finally {
    await search.dispose();
    await home.dispose();
  }
  if (values.json) io.stdout(`${JSON.stringify(hits.map(toSearchHitJson), null, 2)}\n`);
  for (const root of snapshot.roots) if (!root.exists) io.stderr(`warning: ${root.path} does not exist\n`);
  return 0;
}
