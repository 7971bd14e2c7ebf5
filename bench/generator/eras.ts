/**
 * The Claude Code eras the synthetic home mixes, with what each wrote differently (claude-code-state.md
 * §3 and §8): where sub-agent turns live, the agent tool's name, how split assistant chunks carry usage,
 * and which metadata lines exist.
 */
export type EraId = 'v1.0' | 'v2.0' | 'v2.1-early' | 'v2.1-late';

export type SubagentLayout =
  /** ≤ 1.0.x: sidechain lines inline in the session file. */
  | 'inline'
  /** 2.0.x: `agent-<id>.jsonl` beside the session file. */
  | 'sibling'
  /** 2.1.2 – 2.1.7x: `<sessionId>/subagents/agent-<id>.jsonl`. */
  | 'subagents'
  /** 2.1.8x+: the same plus `agent-<id>.meta.json`. */
  | 'subagents-meta';

export interface Era {
  readonly id: EraId;
  readonly version: string;
  /** The first day (UTC) sessions of this era start. */
  readonly since: string;
  readonly subagentLayout: SubagentLayout;
  readonly agentToolName: 'Task' | 'Agent';
  /** Early split chunks carry `stop_reason: null` and a partial `output_tokens`; later ones repeat the final usage. */
  readonly chunksGrowUsage: boolean;
  /** From ~2.1.8x thinking blocks are stored with empty text and only a signature. */
  readonly thinkingText: boolean;
  /** `entrypoint`, `promptId`, `tool_use.caller`, `usage.iterations`, `stop_details`. */
  readonly modernEnvelope: boolean;
  /** `ai-title`, `last-prompt` and `permission-mode` re-appended after every turn. */
  readonly perTurnMetadata: boolean;
  /** Legacy `summary {summary, leafUuid}` lines at the top of the file. */
  readonly summaryLines: boolean;
  /** `progress` lines mirroring each sub-agent message in the parent file (2.1.3x – 2.1.8x). */
  readonly progressMirrors: boolean;
  /** `file-history-snapshot` at every prompt and `queue-operation` lines. */
  readonly fileHistory: boolean;
  /** `system/compact_boundary` + `isCompactSummary`. */
  readonly compactions: boolean;
  /** Large tool outputs spilled to `<sessionId>/tool-results/` behind `<persisted-output>`. */
  readonly spillsLargeOutputs: boolean;
  readonly models: readonly string[];
  readonly subagentModel: string;
  /** A sub-agent id is the prefix and this many hex digits (`a7c91f4` in 2.1.37, `a38ec468816fd17e1` in 2.1.8x+). */
  readonly agentIdHexDigits: number;
  readonly agentIdPrefix: string;
}

const ERAS: readonly Era[] = [
  {
    id: 'v1.0',
    version: '1.0.98',
    since: '2025-06-01',
    subagentLayout: 'inline',
    agentToolName: 'Task',
    chunksGrowUsage: true,
    thinkingText: true,
    modernEnvelope: false,
    perTurnMetadata: false,
    summaryLines: true,
    progressMirrors: false,
    fileHistory: false,
    compactions: false,
    spillsLargeOutputs: false,
    models: ['claude-sonnet-4-20250514', 'claude-opus-4-1-20250805'],
    subagentModel: 'claude-sonnet-4-20250514',
    agentIdHexDigits: 0,
    agentIdPrefix: '',
  },
  {
    id: 'v2.0',
    version: '2.0.64',
    since: '2025-10-01',
    subagentLayout: 'sibling',
    agentToolName: 'Task',
    chunksGrowUsage: true,
    thinkingText: true,
    modernEnvelope: false,
    perTurnMetadata: false,
    summaryLines: true,
    progressMirrors: false,
    fileHistory: true,
    compactions: true,
    spillsLargeOutputs: false,
    models: ['claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101'],
    subagentModel: 'claude-haiku-4-5-20251001',
    agentIdHexDigits: 8,
    agentIdPrefix: '',
  },
  {
    id: 'v2.1-early',
    version: '2.1.37',
    since: '2026-01-10',
    subagentLayout: 'subagents',
    agentToolName: 'Task',
    chunksGrowUsage: true,
    thinkingText: true,
    modernEnvelope: false,
    perTurnMetadata: false,
    summaryLines: false,
    progressMirrors: true,
    fileHistory: true,
    compactions: true,
    spillsLargeOutputs: true,
    models: ['claude-opus-4-5-20251101', 'claude-sonnet-4-5-20250929'],
    subagentModel: 'claude-haiku-4-5-20251001',
    agentIdHexDigits: 6,
    agentIdPrefix: 'a',
  },
  {
    id: 'v2.1-late',
    version: '2.1.128',
    since: '2026-03-15',
    subagentLayout: 'subagents-meta',
    agentToolName: 'Agent',
    chunksGrowUsage: false,
    thinkingText: false,
    modernEnvelope: true,
    perTurnMetadata: true,
    summaryLines: false,
    progressMirrors: false,
    fileHistory: true,
    compactions: true,
    spillsLargeOutputs: true,
    models: ['claude-opus-4-6', 'claude-sonnet-4-6'],
    subagentModel: 'claude-haiku-4-5-20251001',
    agentIdHexDigits: 16,
    agentIdPrefix: 'a',
  },
];

/** The era a session started at `timeMs` belongs to. */
export function eraAt(timeMs: number): Era {
  let found = ERAS[0];
  for (const era of ERAS) if (timeMs >= Date.parse(era.since)) found = era;
  return found;
}

export function eraById(id: EraId): Era {
  const era = ERAS.find((candidate) => candidate.id === id);
  if (!era) throw new Error(`Unknown era ${id}`);
  return era;
}
