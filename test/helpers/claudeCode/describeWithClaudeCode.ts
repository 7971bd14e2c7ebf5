import { describe, it } from 'vitest';
import { CLAUDE_CODE_VERSION, claudeCodeCacheDir, installedClaudeCode } from './claudeCodeInstall';

/**
 * A suite that drives the real Claude Code CLI. Where it is not installed it is skipped with a one-line reason,
 * except on CI, where a missing CLI is a failure (`.ci/run` installs it).
 */
export function describeWithClaudeCode(name: string, body: (binary: string) => void): void {
  const binary = installedClaudeCode();
  if (binary) {
    describe(name, () => body(binary));
    return;
  }
  const reason = `Claude Code ${CLAUDE_CODE_VERSION} is not installed in ${claudeCodeCacheDir()} (npm run claude-code:install puts it there)`;
  if (process.env.CI) {
    describe(name, () => {
      it('has the real Claude Code CLI to run against', () => {
        throw new Error(reason);
      });
    });
    return;
  }
  console.warn(`[claude-code] SKIPPED "${name}": ${reason}.`);
  describe.skip(name, () => body(''));
}
