import Anthropic, { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { LlmError, type LlmClient, type LlmContentBlock, type LlmTurnRequest, type LlmTurnResult } from './llmTypes';

export interface AnthropicClientOptions {
  readonly apiKey: string;
  readonly baseUrl: string;
  /** Retries the SDK makes on 429 and 5xx before a call fails; tests pass 0 to see every error. */
  readonly maxRetries: number;
  readonly timeoutMs?: number;
}

/** Removes the key from any text that leaves this module, should a server or proxy ever echo it. */
function redact(text: string, apiKey: string): string {
  return apiKey.length >= 8 ? text.split(apiKey).join('[redacted]') : text;
}

function toLlmError(error: unknown, apiKey: string, streamStarted: boolean): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof APIUserAbortError) return new LlmError('aborted', 'The request was cancelled');
  if (streamStarted && !(error instanceof APIError && typeof error.status === 'number')) {
    return new LlmError('incomplete-stream', redact(`The answer stopped part-way: ${(error as Error).message}`, apiKey));
  }
  if (error instanceof APIConnectionError) return new LlmError('connection', redact(`Cannot reach the model: ${error.message}`, apiKey));
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const message = redact(error.message, apiKey);
    if (status === 401 || status === 403) return new LlmError('auth', `The API key was refused (${status}): ${message}`, status);
    if (status === 429) return new LlmError('rate-limit', `Rate limited (429): ${message}`, status);
    if (status >= 500) return new LlmError('server', `The model's server failed (${status}): ${message}`, status);
    return new LlmError('bad-request', `The request was refused (${status}): ${message}`, status);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new LlmError('connection', redact(`The model call failed: ${message}`, apiKey));
}

function toContent(blocks: readonly Anthropic.ContentBlock[]): LlmContentBlock[] {
  const content: LlmContentBlock[] = [];
  for (const block of blocks) {
    if (block.type === 'text') content.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') content.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
  }
  return content;
}

/**
 * The one place that talks to the Anthropic SDK. Every setting is passed explicitly so the SDK reads no
 * credentials or profiles of its own; answers are streamed, and the caller's signal cancels the call.
 */
export function createAnthropicClient(options: AnthropicClientOptions): LlmClient {
  const sdk = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    maxRetries: options.maxRetries,
    timeout: options.timeoutMs ?? 10 * 60 * 1000,
    logLevel: 'off',
    openTelemetry: false,
  });
  return {
    baseUrl: options.baseUrl,
    async createTurn(request: LlmTurnRequest, signal: AbortSignal): Promise<LlmTurnResult> {
      if (signal.aborted) throw new LlmError('aborted', 'The request was cancelled');
      // Once events arrived, a dropped connection means a half-received answer, not an unreachable server.
      let streamStarted = false;
      try {
        const stream = sdk.messages.stream(
          {
            model: request.model,
            max_tokens: request.maxTokens,
            system: request.system,
            messages: request.messages as Anthropic.MessageParam[],
            ...(request.tools.length > 0 ? { tools: request.tools as Anthropic.Tool[] } : {}),
          },
          { signal },
        );
        stream.on('streamEvent', () => {
          streamStarted = true;
        });
        const message = await stream.finalMessage();
        return {
          content: toContent(message.content),
          stopReason: message.stop_reason ?? null,
          usage: { inputTokens: message.usage.input_tokens ?? 0, outputTokens: message.usage.output_tokens ?? 0 },
        };
      } catch (error) {
        if (signal.aborted) throw new LlmError('aborted', 'The request was cancelled');
        throw toLlmError(error, options.apiKey, streamStarted);
      }
    },
    async probe(model: string, signal: AbortSignal): Promise<LlmTurnResult> {
      try {
        const message = await sdk.messages.create(
          { model, max_tokens: 8, messages: [{ role: 'user', content: 'Reply with the word OK.' }] },
          { signal },
        );
        return {
          content: toContent(message.content),
          stopReason: message.stop_reason ?? null,
          usage: { inputTokens: message.usage.input_tokens ?? 0, outputTokens: message.usage.output_tokens ?? 0 },
        };
      } catch (error) {
        if (signal.aborted) throw new LlmError('aborted', 'The connection test took too long');
        throw toLlmError(error, options.apiKey, false);
      }
    },
  };
}
