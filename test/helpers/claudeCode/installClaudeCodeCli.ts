/** `npm run claude-code:install`: puts the pinned real Claude Code CLI where the tests look for it (CI runs this). */
import { CLAUDE_CODE_VERSION, claudeCodeCacheDir, installClaudeCode } from './claudeCodeInstall';

installClaudeCode()
  .then((binary) => console.log(`Claude Code ${CLAUDE_CODE_VERSION} for the tests: ${binary}`))
  .catch((error: unknown) => {
    console.error(
      `Could not install Claude Code ${CLAUDE_CODE_VERSION} into ${claudeCodeCacheDir()}: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exitCode = 1;
  });
