import type { JobStopReason } from '../../../shared/jobs/jobTypes';
import { claudeCodeEnv, type ClaudeCodeInvocation } from '../llm/claudeCodeCli';
import {
  claudeCodeArgs,
  createRunFolder,
  JOB_MCP_SERVER,
  resultError,
  startClaudeCode,
  writeMcpConfig,
  type ClaudeCodeRun,
} from '../llm/claudeCodeProcess';
import { LlmError, type LlmErrorKind, type LlmUsage } from '../llm/llmTypes';
import type { McpToolServer } from '../llm/mcpToolServer';
import type { AgentLoopOptions, AgentLoopResult } from './agentLoop';

export interface ClaudeCodeLoopOptions extends Omit<AgentLoopOptions, 'client'> {
  readonly claude: ClaudeCodeInvocation;
}

const TOOL_PREFIX = `mcp__${JOB_MCP_SERVER}__`;

/** One model answer as Claude Code streams it: one message per content block, all with the answer's id. */
interface AnswerTally {
  readonly input: number;
  outputChars: number;
  reportedOutput: number;
  readonly toolUses: Set<string>;
}

/** A cap the next call would pass, found on one answer: stop once that answer's tool calls are done. */
interface CapReached {
  readonly reason: JobStopReason;
  readonly answerId: string;
}

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Input counts everything the model read: fresh, written to the prompt cache, and read from it. */
function usageOf(raw: unknown): LlmUsage {
  const usage = record(raw) ?? {};
  return {
    inputTokens: count(usage.input_tokens) + count(usage.cache_creation_input_tokens) + count(usage.cache_read_input_tokens),
    outputTokens: count(usage.output_tokens),
  };
}

function errorKind(result: Record<string, unknown>): LlmErrorKind {
  const status = typeof result.api_error_status === 'number' ? result.api_error_status : null;
  if (status === 401 || status === 403 || /not logged in|\/login|authenticat/i.test(resultError(result))) return 'auth';
  if (status === 429) return 'rate-limit';
  if (status !== null && status < 500) return 'bad-request';
  return 'server';
}

/** What a tool call gets once the job has stopped taking calls (a cap was reached). */
const CAP_REACHED = { content: 'The job reached its cap; this call was not run.', isError: true } as const;

/**
 * Runs one model loop of a job through the user's Claude Code instead of the API: the same prompts, the same six
 * tools over the job's staging overlay (served to Claude Code over MCP from this process), the same caps. Claude
 * Code runs the turns; this watches its stream for progress and usage, and stops it (its whole process group) on
 * cancel or when a cap would be passed.
 *
 * The token and spending caps are checked as each answer arrives, as the API loop checks them before each call:
 * the tool calls of that answer still run, then Claude Code is stopped while it waits for the last result, so it
 * cannot make another call. Should the answer's calls all have finished before its usage was seen, Claude Code is
 * stopped at once; a call it already started counts, and its tool calls are refused. Usage and cost come from
 * Claude Code's own result message when it finishes.
 */
export async function runClaudeCodeLoop(options: ClaudeCodeLoopOptions): Promise<AgentLoopResult> {
  const { claude, limits, meter, toolbox, signal } = options;
  if (signal.aborted) throw new LlmError('aborted', 'The request was cancelled');
  const folder = await createRunFolder(claude.runsDir);
  let server: McpToolServer | null = null;
  let run: ClaudeCodeRun | null = null;
  const answers = new Map<string, AnswerTally>();
  /** Tool calls this loop ran to the end, by the model's id for them. */
  const completed = new Set<string>();
  const estimated = { inputTokens: 0, outputTokens: 0 };
  let finalText = '';
  let result: Record<string, unknown> | null = null;
  let refusal: string | null = null;
  let cap: CapReached | null = null;
  let stoppedForCap = false;
  // Claude Code may run several tool calls at once; the toolbox stages them one after another, as the API loop does.
  let queue: Promise<unknown> = Promise.resolve();

  const stopForCap = () => {
    stoppedForCap = true;
    run?.stop();
  };

  /** Whether every tool call of the answer that reached the cap has run. */
  const capAnswerDone = (reached: CapReached) => [...(answers.get(reached.answerId)?.toolUses ?? [])].every((id) => completed.has(id));

  const addEstimate = (usage: LlmUsage) => {
    meter.add(usage);
    estimated.inputTokens += usage.inputTokens;
    estimated.outputTokens += usage.outputTokens;
  };

  const checkInit = (message: Record<string, unknown>) => {
    const tools = Array.isArray(message.tools) ? message.tools.filter((t): t is string => typeof t === 'string') : [];
    const allowed = new Set(options.tools.map((tool) => TOOL_PREFIX + tool.name));
    const foreign = tools.filter((tool) => !allowed.has(tool));
    const servers = Array.isArray(message.mcp_servers) ? message.mcp_servers.map(record) : [];
    const ours = servers.find((s) => s?.name === JOB_MCP_SERVER);
    const otherServers = servers.filter((s) => s?.name !== JOB_MCP_SERVER).map((s) => String(s?.name));
    if (foreign.length > 0 || otherServers.length > 0) {
      refusal = `Claude Code offered the model more than the job's own tools (${[...foreign, ...otherServers].slice(0, 10).join(', ')}); the job was stopped`;
    } else if (!ours || ours.status !== 'connected') {
      refusal = `Claude Code could not reach the job's tools (${typeof ours?.status === 'string' ? ours.status : 'not listed'})`;
    }
    if (refusal) run?.stop();
  };

  const onAnswer = (message: Record<string, unknown>) => {
    const answer = record(message.message);
    if (!answer || typeof answer.id !== 'string' || answer.model === '<synthetic>') return;
    let tally = answers.get(answer.id);
    if (!tally) {
      tally = { input: usageOf(answer.usage).inputTokens, outputChars: 0, reportedOutput: 0, toolUses: new Set() };
      answers.set(answer.id, tally);
      addEstimate({ inputTokens: tally.input, outputTokens: 0 });
      options.onProgress(answers.size);
    }
    // Streamed answers carry the output count of their first event only; the text itself says more.
    const before = Math.max(tally.reportedOutput, Math.ceil(tally.outputChars / 4));
    const content = Array.isArray(answer.content) ? answer.content.map(record) : [];
    tally.outputChars += JSON.stringify(content).length;
    tally.reportedOutput = Math.max(tally.reportedOutput, usageOf(answer.usage).outputTokens);
    addEstimate({ inputTokens: 0, outputTokens: Math.max(tally.reportedOutput, Math.ceil(tally.outputChars / 4)) - before });
    for (const block of content) {
      if (block?.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '') finalText = block.text.trim();
      if (block?.type === 'tool_use' && typeof block.id === 'string') tally.toolUses.add(block.id);
    }
    if (cap) {
      // A call past the cap happened after all: counted above, stopped here.
      if (answer.id !== cap.answerId) stopForCap();
      return;
    }
    // The next call sends this whole conversation again, and more.
    const nextInput = tally.input + Math.ceil(tally.outputChars / 4);
    let reason: JobStopReason | null = null;
    if (meter.totalTokens() + nextInput > limits.maxTokens) reason = 'token-cap';
    else {
      const projected = meter.costAfter({ inputTokens: nextInput, outputTokens: limits.maxOutputTokensPerTurn });
      if (projected !== null && projected > limits.maxCostUsd) reason = 'cost-cap';
    }
    if (!reason) return;
    cap = { reason, answerId: answer.id };
    if (tally.toolUses.size > 0 && capAnswerDone(cap)) stopForCap();
  };

  /** Runs one tool call of Claude Code's, in turn; past a cap only the calls of the answer that reached it run. */
  const callTool = async (name: string, input: unknown, toolUseId: string | null) => {
    const reached = cap as CapReached | null;
    if (reached && !(toolUseId !== null && answers.get(reached.answerId)?.toolUses.has(toolUseId))) {
      stopForCap();
      return CAP_REACHED;
    }
    const outcome = await toolbox.run(name, input, signal);
    if (toolUseId !== null) completed.add(toolUseId);
    const after = cap as CapReached | null;
    if (after && capAnswerDone(after)) {
      // The last result is never sent: Claude Code waits for it until it is stopped, and makes no further call.
      stopForCap();
      return new Promise<never>(() => undefined);
    }
    return outcome;
  };

  const onToolResults = () => {
    options.onProgress(answers.size);
    const reached = cap as CapReached | null;
    if (reached && capAnswerDone(reached)) stopForCap();
  };

  try {
    // The MCP SDK is loaded by the job that serves tools with it, not by every command that builds the engine.
    const { startMcpToolServer } = await import('../llm/mcpToolServer');
    server = await startMcpToolServer({
      name: JOB_MCP_SERVER,
      tools: options.tools,
      call: (name, input, toolUseId) => {
        const next = queue.then(() => callTool(name, input, toolUseId));
        queue = next.catch(() => undefined);
        return next;
      },
    });
    const mcpConfigFile = await writeMcpConfig(folder.root, server);
    run = startClaudeCode({
      path: claude.path,
      args: claudeCodeArgs({
        system: options.system,
        model: options.model,
        maxTurns: limits.maxTurns,
        mcpConfigFile,
        allowedTools: options.tools.map((tool) => TOOL_PREFIX + tool.name),
      }),
      stdin: options.kickoff,
      cwd: folder.cwd,
      env: claudeCodeEnv(claude.env, { ...folder.env, CLAUDE_CODE_MAX_OUTPUT_TOKENS: String(limits.maxOutputTokensPerTurn) }),
      onMessage: (message) => {
        if (message.type === 'system' && message.subtype === 'init') checkInit(message);
        else if (message.type === 'assistant' && message.parent_tool_use_id == null) onAnswer(message);
        else if (message.type === 'user') onToolResults();
        else if (message.type === 'result') result = message;
      },
    });
    const started = run;
    const cancel = () => started.stop();
    signal.addEventListener('abort', cancel, { once: true });
    const exit = await started.exited;
    signal.removeEventListener('abort', cancel);
    if (signal.aborted) throw new LlmError('aborted', 'The request was cancelled');
    if (refusal) throw new LlmError('bad-request', refusal);
    const final = result as Record<string, unknown> | null;
    // Set by the stream handlers while Claude Code ran.
    const capped = stoppedForCap ? (cap as CapReached | null) : null;
    if (final) {
      const reported = typeof final.total_cost_usd === 'number' && claude.billing === 'api-key' ? final.total_cost_usd : null;
      meter.settle(estimated, usageOf(final.usage), reported);
      if (capped) return { finalText, stopReason: capped.reason };
      if (final.subtype === 'error_max_turns') return { finalText, stopReason: 'turn-cap' };
      if (final.is_error === true) throw new LlmError(errorKind(final), `Claude Code: ${resultError(final)}`);
      return {
        finalText: typeof final.result === 'string' && final.result.trim() !== '' ? final.result.trim() : finalText,
        stopReason: null,
      };
    }
    if (capped) return { finalText, stopReason: capped.reason };
    const how = exit.code !== null ? `exit code ${exit.code}` : `signal ${exit.signal ?? 'unknown'}`;
    throw new LlmError(
      'connection',
      `Claude Code stopped without finishing (${how}): ${exit.stderrTail.trim().slice(-500) || 'no output'}`,
    );
  } finally {
    run?.stop();
    await run?.exited;
    await server?.close();
    await folder.dispose();
  }
}
