import { useEffect, useState } from 'react';
import type { LlmSettingsView } from '../../../../shared/jobs/llmSettings';
import { ClaudeCodeFacts } from './ClaudeCodeFacts';

export interface ClaudeCodeBackendProps {
  readonly view: LlmSettingsView;
  readonly readOnly: boolean;
  readonly busy: boolean;
  /** Saves the path to claude (null: the one on the PATH). */
  readonly onSavePath: (path: string | null) => void;
  readonly onTest: () => void;
}

/** The Claude Code backend: which claude runs jobs and its login, and the path to choose another. */
export function ClaudeCodeBackend({ view, readOnly, busy, onSavePath, onTest }: ClaudeCodeBackendProps) {
  const [claudePath, setClaudePath] = useState(view.claudePath ?? '');
  // Every view the engine sends (read or saved) shows what it holds.
  useEffect(() => setClaudePath(view.claudePath ?? ''), [view]);
  return (
    <section aria-label="Claude Code backend">
      <h3>Claude Code</h3>
      <p className="muted">
        Runs the job with the claude you already use and its login (a Claude subscription works). Only the job&apos;s own tools are given to
        it; your hooks, MCP servers, CLAUDE.md files and Claude Code&apos;s own memory stay out of it, and it keeps no transcript.
      </p>
      <ClaudeCodeFacts status={view.claudeCode} />
      <form
        className="field"
        onSubmit={(event) => {
          event.preventDefault();
          onSavePath(claudePath.trim() === '' ? null : claudePath.trim());
        }}
      >
        <label htmlFor="llm-claude-path">
          Path to claude <span className="muted">(used unless CCMEM_CLAUDE_PATH is set; empty: the one on the PATH)</span>
        </label>
        <input
          id="llm-claude-path"
          value={claudePath}
          onChange={(event) => setClaudePath(event.target.value)}
          placeholder="/usr/local/bin/claude"
          spellCheck={false}
        />
        <div className="dialog-buttons">
          <button type="submit" disabled={readOnly || busy}>
            Save path
          </button>
          <button type="button" disabled={busy || !view.claudeCode.found} onClick={onTest}>
            Test Claude Code
          </button>
        </div>
      </form>
    </section>
  );
}
