/** The slice of the Messages API the jobs use, in our own types so nothing outside llm/ depends on the SDK. */

export type LlmContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: unknown };

export interface LlmToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content: string;
  readonly is_error: boolean;
}

export type LlmMessage =
  | { readonly role: 'user'; readonly content: string | readonly (LlmToolResultBlock | { readonly type: 'text'; readonly text: string })[] }
  | { readonly role: 'assistant'; readonly content: readonly LlmContentBlock[] };

export interface LlmToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly input_schema: { readonly type: 'object'; readonly properties: Record<string, unknown>; readonly required: readonly string[] };
}

export interface LlmTurnRequest {
  readonly model: string;
  readonly system: string;
  readonly messages: readonly LlmMessage[];
  readonly tools: readonly LlmToolDefinition[];
  readonly maxTokens: number;
}

export interface LlmUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface LlmTurnResult {
  readonly content: readonly LlmContentBlock[];
  readonly stopReason: string | null;
  readonly usage: LlmUsage;
}

/** One conversation turn at a time; `signal` aborts the request in flight. */
export interface LlmClient {
  readonly baseUrl: string;
  /** A streamed turn, for jobs: progress comes in as it is generated and a cut stream is detected. */
  createTurn(request: LlmTurnRequest, signal: AbortSignal): Promise<LlmTurnResult>;
  /** A tiny non-streamed call that proves key, model and base URL work together. */
  probe(model: string, signal: AbortSignal): Promise<LlmTurnResult>;
}

export type LlmErrorKind = 'no-key' | 'auth' | 'rate-limit' | 'server' | 'bad-request' | 'aborted' | 'connection' | 'incomplete-stream';

/** A failed model call, in words a user can act on; never carries the API key. */
export class LlmError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}
