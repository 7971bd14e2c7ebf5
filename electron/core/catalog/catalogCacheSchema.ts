import { z } from 'zod';
import type { FileSummary } from './fileSummary';
import type { AgentMeta } from './sessionEntry';
import { CATALOG_CACHE_FORMAT } from './catalogCacheFormat';

/**
 * The catalog cache's on-disk shapes. The index is guarded by a hash of its body (see CatalogStore): it is
 * read back only when it is byte for byte what was written, in this format. Per-file states are checked
 * against the schema below. Anything else (an older format, a half-written or hand-edited file) is
 * discarded and rebuilt, never trusted.
 */
export { CATALOG_CACHE_FORMAT };

interface FileVersion {
  readonly path: string;
  readonly fileId: string;
  readonly size: number;
  readonly mtimeNs: string;
  readonly mtimeMs: number;
}

/** One transcript as last read. */
export interface CachedFile extends FileVersion {
  /** Where the next read starts: after the last complete line. */
  readonly offset: number;
  /** Hex of the bytes just before `offset`; if they changed, the file was rewritten and is read again. */
  readonly tailHex: string;
  /** The memory folder paths were classified against; if it moved, the file is read again. */
  readonly memoryKey: string;
  readonly isSubagentFile: boolean;
  readonly summary: FileSummary;
}

export interface CachedMeta extends FileVersion {
  readonly meta: AgentMeta | null;
}

export interface CachedSession {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  readonly path: string;
  /** False when `path` is gone and only the session's sub-agent folder is left. */
  readonly mainTranscript: boolean;
  /** `<sessionId>/custom-title.json` (Claude Code 2.1.3xx writes `/rename` there), when present. */
  readonly customTitle: string | null;
  /** Sub-agent files of this session in both file layouts, and their meta.json paths. */
  readonly subagents: readonly {
    readonly agentId: string;
    readonly layout: 'sibling' | 'subagents-folder';
    readonly path: string;
    readonly metaPath: string | null;
  }[];
  readonly sessionMemoryPath: string | null;
  /** Files of this session read from the transcript archive (Claude Code deleted them); absent when none. */
  readonly archivedPaths?: readonly string[];
}

export interface CatalogIndex {
  readonly format: typeof CATALOG_CACHE_FORMAT;
  readonly files: readonly CachedFile[];
  readonly metas: readonly CachedMeta[];
  readonly sessions: readonly CachedSession[];
}

const count = z.number().int().nonnegative();
const text = z.string();
const maybeText = z.string().nullable();
const texts = z.array(z.string());
const tokenTotalsSchema = z.strictObject({ input: count, output: count, cacheCreation: count, cacheRead: count });
const compactionSchema = z.strictObject({
  timestamp: maybeText,
  trigger: maybeText,
  preTokens: z.number().nullable(),
  postTokens: z.number().nullable(),
});
const agentLinkSchema = z.strictObject({ agentType: maybeText, description: maybeText, toolUseId: maybeText });
const prLinkSchema = z.strictObject({ url: text, number: z.number().nullable(), repository: maybeText });

const ledgerSchema = z.strictObject({
  settled: tokenTotalsSchema,
  settledMessages: count,
  open: z.array(z.tuple([text, tokenTotalsSchema, texts])),
});

const inlineAgentStateSchema = z.strictObject({
  rootUuid: text,
  agentType: maybeText,
  description: maybeText,
  ledger: ledgerSchema,
  toolCalls: count,
  models: texts,
  firstTimestamp: maybeText,
  lastTimestamp: maybeText,
});

export const aggregateStateSchema = z.strictObject({
  version: z.literal(2),
  lines: count,
  badLines: count,
  firstTimestamp: maybeText,
  lastTimestamp: maybeText,
  firstSessionId: maybeText,
  cwds: texts,
  gitBranches: texts,
  versions: texts,
  models: texts,
  customTitle: maybeText,
  aiTitle: maybeText,
  lastPrompt: maybeText,
  summary: maybeText,
  otherSummaries: z.array(z.tuple([text, text])),
  leafUuids: texts,
  firstPrompt: maybeText,
  localCommandNext: z.boolean(),
  prLinks: z.array(prLinkSchema),
  agentName: maybeText,
  mode: maybeText,
  userPrompts: count,
  toolCalls: count,
  ledger: ledgerSchema,
  compactions: z.array(compactionSchema),
  memoryReads: texts,
  memoryWrites: texts,
  agentLinks: z.array(z.tuple([text, agentLinkSchema])),
  pendingAgentCalls: z.array(z.tuple([text, agentLinkSchema])),
  pendingInlinePrompts: z.array(z.tuple([text, agentLinkSchema])),
  sidechainRoots: z.array(z.tuple([text, text])),
  inlineAgents: z.array(inlineAgentStateSchema),
});

export const cachedStateSchema = z.strictObject({
  format: z.literal(CATALOG_CACHE_FORMAT),
  path: text,
  fileId: text,
  offset: count,
  state: aggregateStateSchema,
});

export type CachedState = z.infer<typeof cachedStateSchema>;
