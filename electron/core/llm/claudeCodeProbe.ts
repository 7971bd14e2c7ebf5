import { claudeCodeEnv, type ClaudeCodeInvocation } from './claudeCodeCli';
import { claudeCodeArgs, createRunFolder, resultError, startClaudeCode } from './claudeCodeProcess';

const PROBE_PROMPT = 'Reply with the word OK.';

/**
 * One turn through the same spawn path as a job (same flags, a private working folder, no tools at all): proves
 * that this `claude`, its login and the model work together. Resolves with a message either way.
 */
export async function probeClaudeCode(
  claude: ClaudeCodeInvocation,
  model: string,
  signal: AbortSignal,
): Promise<{ readonly ok: boolean; readonly message: string }> {
  const folder = await createRunFolder(claude.runsDir);
  try {
    let result: Record<string, unknown> | null = null;
    const run = startClaudeCode({
      path: claude.path,
      args: claudeCodeArgs({ system: PROBE_PROMPT, model, maxTurns: 1, mcpConfigFile: null, allowedTools: [] }),
      stdin: PROBE_PROMPT,
      cwd: folder.cwd,
      env: claudeCodeEnv(claude.env, folder.env),
      onMessage: (message) => {
        if (message.type === 'result') result = message;
      },
    });
    const stop = () => run.stop();
    signal.addEventListener('abort', stop, { once: true });
    const exit = await run.exited;
    signal.removeEventListener('abort', stop);
    const final = result as Record<string, unknown> | null;
    if (signal.aborted) return { ok: false, message: 'Claude Code did not answer in time' };
    if (!final)
      return {
        ok: false,
        message: `Claude Code stopped without answering (exit code ${exit.code ?? exit.signal ?? 'unknown'}): ${exit.stderrTail.trim().slice(-500) || 'no output'}`,
      };
    if (final.is_error === true) return { ok: false, message: resultError(final) };
    const billing = claude.billing === 'subscription' ? 'with your Claude subscription' : 'with an API key';
    return { ok: true, message: `Claude Code ${claude.version} answered ${billing}` };
  } finally {
    await folder.dispose();
  }
}
