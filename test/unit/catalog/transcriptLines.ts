/**
 * Builders of single transcript lines in Claude Code's shapes (claude-code-state.md §2), for catalog tests
 * that need lines the scenario builders do not write: usage chunks, tool calls, sub-agents, compactions.
 */
import { seededUuid } from '../../fixtures/scenarioHome';

export interface EnvelopeOptions {
  readonly sessionId?: string;
  readonly timestamp?: string;
  readonly cwd?: string;
  readonly gitBranch?: string;
  readonly version?: string;
  readonly uuid?: string;
  readonly parentUuid?: string | null;
  readonly isSidechain?: boolean;
  readonly agentId?: string;
}

export const SESSION_ID = seededUuid('catalog-tests-session');

function envelope(options: EnvelopeOptions): Record<string, unknown> {
  return {
    parentUuid: options.parentUuid ?? null,
    isSidechain: options.isSidechain ?? false,
    ...(options.agentId ? { agentId: options.agentId } : {}),
    uuid: options.uuid ?? seededUuid(`line:${Math.random()}`),
    timestamp: options.timestamp ?? '2026-05-01T10:00:00.000Z',
    userType: 'external',
    cwd: options.cwd ?? '/work/app',
    sessionId: options.sessionId ?? SESSION_ID,
    version: options.version ?? '2.1.128',
    gitBranch: options.gitBranch ?? 'main',
  };
}

export function userPrompt(text: string, options: EnvelopeOptions & { readonly isMeta?: boolean } = {}): string {
  return JSON.stringify({
    ...envelope(options),
    type: 'user',
    message: { role: 'user', content: text },
    ...(options.isMeta ? { isMeta: true } : {}),
  });
}

export interface UsageSpec {
  readonly input?: number;
  readonly output: number;
  readonly cacheCreation?: number;
  readonly cacheRead?: number;
}

export interface AssistantOptions extends EnvelopeOptions {
  readonly messageId: string;
  readonly model?: string;
  readonly usage: UsageSpec;
  readonly block?: Record<string, unknown>;
  readonly isApiErrorMessage?: boolean;
}

/** One streamed chunk of an assistant response (one content block per line, usage repeated). */
export function assistantChunk(options: AssistantOptions): string {
  return JSON.stringify({
    ...envelope(options),
    type: 'assistant',
    requestId: `req_${options.messageId}`,
    ...(options.isApiErrorMessage ? { isApiErrorMessage: true } : {}),
    message: {
      model: options.model ?? 'claude-sonnet-4-6',
      id: options.messageId,
      type: 'message',
      role: 'assistant',
      content: [options.block ?? { type: 'text', text: 'Done.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: options.usage.input ?? 0,
        output_tokens: options.usage.output,
        cache_creation_input_tokens: options.usage.cacheCreation ?? 0,
        cache_read_input_tokens: options.usage.cacheRead ?? 0,
      },
    },
  });
}

export function toolUse(id: string, name: string, input: Record<string, unknown>): Record<string, unknown> {
  return { type: 'tool_use', id, name, input };
}

export function toolResult(
  toolUseId: string,
  output: string,
  options: EnvelopeOptions & { readonly toolUseResult?: unknown } = {},
): string {
  return JSON.stringify({
    ...envelope(options),
    type: 'user',
    message: { role: 'user', content: [{ tool_use_id: toolUseId, type: 'tool_result', content: output, is_error: false }] },
    toolUseResult: options.toolUseResult ?? { stdout: output, stderr: '', interrupted: false, isImage: false },
  });
}

export function compactBoundary(preTokens: number, postTokens: number, options: EnvelopeOptions = {}): string {
  return JSON.stringify({
    ...envelope(options),
    parentUuid: null,
    logicalParentUuid: seededUuid('before-compaction'),
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    level: 'info',
    compactMetadata: { trigger: 'auto', preTokens, postTokens },
  });
}

export function metadata(type: string, fields: Record<string, unknown>): string {
  return JSON.stringify({ type, sessionId: SESSION_ID, ...fields });
}
