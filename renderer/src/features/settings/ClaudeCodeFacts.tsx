import type { ClaudeCodeStatus } from '../../../../shared/jobs/llmSettings';

const SOURCE_TEXT = { environment: 'from CCMEM_CLAUDE_PATH', settings: 'the path set here', path: 'found on the PATH' } as const;

function loginText(status: Extract<ClaudeCodeStatus, { found: true }>): string {
  if (!status.loggedIn) return 'not logged in: run claude and sign in with /login';
  if (status.billing === 'subscription') return 'logged in with a Claude subscription (jobs show tokens, not dollars)';
  return 'logged in with an API key (jobs show what they cost)';
}

/** Which claude would run a job, its version and its login, or why none was found. */
export function ClaudeCodeFacts({ status }: { readonly status: ClaudeCodeStatus }) {
  if (!status.found) {
    return (
      <p className="muted" aria-label="Claude Code status">
        Not found: {status.message}
      </p>
    );
  }
  return (
    <dl className="facts" aria-label="Claude Code status">
      <dt>Program</dt>
      <dd>
        <code>{status.path}</code> <span className="muted">({SOURCE_TEXT[status.source]})</span>
      </dd>
      <dt>Version</dt>
      <dd aria-label="Claude Code version">{status.version ?? 'unknown'}</dd>
      <dt>Login</dt>
      <dd aria-label="Claude Code login">{loginText(status)}</dd>
      {status.problem ? (
        <>
          <dt>Problem</dt>
          <dd className="error">{status.problem}</dd>
        </>
      ) : null}
    </dl>
  );
}
