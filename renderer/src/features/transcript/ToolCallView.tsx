import type { HookRun, ToolCall, ToolResult } from '../../../../shared/transcript/transcriptEntry';
import { CollapsibleText } from './CollapsibleText';
import { DiffView } from './DiffView';
import { PersistedOutputView } from './PersistedOutputView';
import { imageLabel, shortId } from './transcriptFormat';
import { CopyButton } from '../../components/CopyButton';
import { FindAwareDetails } from './FindAwareDetails';

export interface ToolCallViewProps {
  readonly call: ToolCall;
  readonly onOpenSubagent: (agentId: string) => void;
}

function ResultView({ result, label }: { readonly result: ToolResult; readonly label: string }) {
  const output = result.bash ? [result.bash.stdout, result.bash.stderr].filter((part) => part !== '').join('\n') : result.text;
  return (
    <div className={result.isError ? 'tx-result tx-result-error' : 'tx-result'} aria-label={label}>
      <div className="tx-result-label">
        {result.isError ? 'Error' : label}
        {result.bash?.interrupted ? <span className="badge warn">interrupted</span> : null}
        {output !== '' ? <CopyButton text={output} label={`Copy the ${label.toLowerCase()}`} /> : null}
      </div>
      {output !== '' ? (
        <CollapsibleText text={output} className="tx-pre" maxLines={12} omittedChars={result.omittedChars} />
      ) : (
        <p className="muted small">(no output)</p>
      )}
      {result.images.map((image, index) => (
        <p key={index} className="tx-image">
          {imageLabel(image)}
        </p>
      ))}
      {result.persistedOutput ? <PersistedOutputView output={result.persistedOutput} /> : null}
    </div>
  );
}

/** What a PreToolUse/PostToolUse hook reported for the call. */
function HookView({ hook }: { readonly hook: HookRun }) {
  const failed = hook.outcome !== 'hook_success';
  return (
    <div className={failed ? 'tx-hook tx-hook-error' : 'tx-hook'} aria-label={`Hook ${hook.name ?? hook.event ?? ''}`}>
      <span className="tx-role">
        {hook.event ?? 'hook'} · {hook.outcome.replace(/^hook_/, '').replace(/_/g, ' ')}
        {hook.exitCode !== null && hook.exitCode !== 0 ? ` · exit ${hook.exitCode}` : ''}
      </span>{' '}
      {hook.command ? <code>{hook.command}</code> : null}
      {hook.text !== '' ? <CollapsibleText text={hook.text} maxLines={4} maxChars={600} className="tx-inline-text" /> : null}
    </div>
  );
}

/** One tool call paired with its result: Edit as a diff, Bash as its output, sub-agent calls with a way into the run. */
export function ToolCallView({ call, onOpenSubagent }: ToolCallViewProps) {
  const isAgent = call.name === 'Agent' || call.name === 'Task';
  return (
    <div className="tx-tool" aria-label={`Tool call ${call.name}`}>
      <div className="tx-tool-header">
        <span className="tx-tool-name">{call.name}</span>
        <span className="tx-tool-summary">{call.summary}</span>
        {call.result === null ? <span className="badge muted-badge">no result</span> : null}
      </div>
      {call.bashCommand !== null ? (
        <div className="code-block">
          <pre className="tx-command">{`$ ${call.bashCommand}`}</pre>
          <CopyButton text={call.bashCommand} label="Copy the command" />
        </div>
      ) : null}
      {call.edit !== null ? <DiffView edit={call.edit} showPath={call.summary !== call.edit.filePath} /> : null}
      {call.bashCommand === null && call.edit === null ? (
        <FindAwareDetails
          className="tx-input"
          text={call.input}
          summary={
            <>
              Input <CopyButton text={call.input} label={`Copy the input of ${call.name}`} />
            </>
          }
        >
          <CollapsibleText text={call.input} className="tx-pre" maxLines={30} />
        </FindAwareDetails>
      ) : null}
      {isAgent || call.subagent ? (
        <div className="tx-subagent-link">
          {call.subagent ? (
            <>
              <span>
                Sub-agent <strong>{call.subagent.agentType ?? 'run'}</strong>{' '}
                <code title={call.subagent.agentId}>{shortId(call.subagent.agentId)}</code>
              </span>
              <button type="button" onClick={() => onOpenSubagent(call.subagent?.agentId as string)}>
                Open sub-agent
              </button>
            </>
          ) : (
            <span className="muted small">No transcript of this sub-agent run was found.</span>
          )}
        </div>
      ) : null}
      {call.hooks
        .filter((hook) => hook.event === 'PreToolUse')
        .map((hook) => (
          <HookView key={hook.line} hook={hook} />
        ))}
      {call.result !== null ? <ResultView result={call.result} label={call.bashCommand !== null ? 'Output' : 'Result'} /> : null}
      {call.hooks
        .filter((hook) => hook.event !== 'PreToolUse')
        .map((hook) => (
          <HookView key={hook.line} hook={hook} />
        ))}
    </div>
  );
}
