import type { SessionCatalogEntry } from '../../../shared/model/catalog';
import type { SessionQuickInfo } from '../../../shared/model/session';
import { durationOf } from './sessionEntry';
import { ZERO_TOKENS } from './usageLedger';

/**
 * A timeline row from what discovery read of a session (its file's first and last lines), for the app's first start
 * while the catalog has not read the file yet: what those lines tell, and nothing counted (see `provisional`).
 */
export function provisionalEntry(configRoot: string, slug: string, info: SessionQuickInfo): SessionCatalogEntry {
  return {
    configRoot,
    slug,
    sessionId: info.sessionId,
    path: info.file,
    mainTranscript: info.mainTranscript,
    title: info.title,
    titleSource: info.titleSource,
    firstTimestamp: info.firstTimestamp,
    lastTimestamp: info.lastTimestamp,
    durationMs: durationOf(info.firstTimestamp, info.lastTimestamp),
    cwds: info.cwd ? [info.cwd] : [],
    gitBranches: info.gitBranch ? [info.gitBranch] : [],
    versions: info.version ? [info.version] : [],
    models: [],
    userPrompts: 0,
    assistantTurns: 0,
    toolCalls: 0,
    tokens: ZERO_TOKENS,
    subagents: [],
    compactions: [],
    memoryReads: [],
    memoryWrites: [],
    hasSessionMemory: false,
    archived: false,
    prLinks: [],
    agentName: null,
    mode: null,
    bytes: info.bytes,
    badLines: 0,
    mtime: info.mtime,
    provisional: true,
  };
}
