import type { JobStopReason } from '../../../shared/jobs/jobTypes';
import type { LlmClient, LlmMessage, LlmToolDefinition, LlmToolResultBlock } from '../llm/llmTypes';
import type { JobToolbox } from './JobToolbox';
import type { UsageMeter } from './UsageMeter';

export interface LoopLimits {
  readonly maxTurns: number;
  /** Input plus output tokens over the whole job. */
  readonly maxTokens: number;
  /** US dollars over the whole job; ignored for a model whose price is unknown (the token cap still holds). */
  readonly maxCostUsd: number;
  readonly maxOutputTokensPerTurn: number;
}

export interface AgentLoopOptions {
  readonly client: LlmClient;
  readonly model: string;
  readonly system: string;
  readonly kickoff: string;
  readonly tools: readonly LlmToolDefinition[];
  readonly toolbox: JobToolbox;
  readonly meter: UsageMeter;
  readonly limits: LoopLimits;
  readonly signal: AbortSignal;
  /** Called after each model answer and after its tool calls ran. */
  readonly onProgress: (turn: number) => void;
}

export interface AgentLoopResult {
  /** The text of the model's last answer: its summary when it finished. */
  readonly finalText: string;
  /** Null when the model finished by itself. */
  readonly stopReason: JobStopReason | null;
}

/** A rough token count for text the model has not seen yet (about four characters a token). */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Runs the model until it stops calling tools, or a cap is reached. Before each call it checks the
 * token and spending caps against the next call's likely size, so a cap is never overshot by a whole turn.
 * An abort (cancel) or a failed call throws; whatever the toolbox staged so far stays in its overlay.
 */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { client, limits, meter, toolbox, signal } = options;
  const messages: LlmMessage[] = [{ role: 'user', content: options.kickoff }];
  let nextInputEstimate = estimateTokens(options.system + options.kickoff + JSON.stringify(options.tools));
  let finalText = '';
  for (let turn = 1; turn <= limits.maxTurns; turn++) {
    if (meter.totalTokens() + nextInputEstimate > limits.maxTokens) return { finalText, stopReason: 'token-cap' };
    const projected = meter.costAfter({ inputTokens: nextInputEstimate, outputTokens: limits.maxOutputTokensPerTurn });
    if (projected !== null && projected > limits.maxCostUsd) return { finalText, stopReason: 'cost-cap' };
    const answer = await client.createTurn(
      { model: options.model, system: options.system, messages, tools: options.tools, maxTokens: limits.maxOutputTokensPerTurn },
      signal,
    );
    meter.add(answer.usage);
    messages.push({ role: 'assistant', content: answer.content });
    const text = answer.content
      .filter((block) => block.type === 'text')
      .map((block) => (block.type === 'text' ? block.text : ''))
      .join('\n')
      .trim();
    if (text !== '') finalText = text;
    options.onProgress(turn);
    const toolUses = answer.content.filter((block) => block.type === 'tool_use');
    if (toolUses.length === 0) return { finalText, stopReason: null };
    const results: LlmToolResultBlock[] = [];
    for (const use of toolUses) {
      if (use.type !== 'tool_use') continue;
      signal.throwIfAborted();
      const outcome = await toolbox.run(use.name, use.input, signal);
      results.push({ type: 'tool_result', tool_use_id: use.id, content: outcome.content, is_error: outcome.isError });
    }
    messages.push({ role: 'user', content: results });
    options.onProgress(turn);
    nextInputEstimate = answer.usage.inputTokens + estimateTokens(JSON.stringify(answer.content) + JSON.stringify(results));
  }
  return { finalText, stopReason: 'turn-cap' };
}
