import { recordedCommand, type RecordedCommand } from '../../../../shared/claude/promptText';
import { assertNever } from '../../../../shared/result';
import type { ContentBlock, TranscriptEntry } from '../../../../shared/transcript/transcriptEntry';
import { MarkdownView } from '../../components/MarkdownView';
import { AttachmentView } from './AttachmentView';
import { CollapsibleText } from './CollapsibleText';
import { MessageActions } from './MessageActions';
import { ToolCallView } from './ToolCallView';
import { formatBytes, formatCount, formatTime, imageLabel } from './transcriptFormat';
import { CopyButton } from '../../components/CopyButton';
import { FindAwareDetails } from './FindAwareDetails';

export interface EntryViewProps {
  readonly entry: TranscriptEntry;
  readonly onOpenSubagent: (agentId: string) => void;
  /** The previous row is a chunk of the same API response: no second header. */
  readonly continued?: boolean;
}

/** Assistant prose is Markdown; past this size it is shown as plain collapsed text (rendering it would stall scrolling). */
const MAX_MARKDOWN_CHARS = 8000;

function BlockView({
  block,
  markdown,
  onOpenSubagent,
}: {
  readonly block: ContentBlock;
  readonly markdown: boolean;
  readonly onOpenSubagent: (agentId: string) => void;
}) {
  switch (block.kind) {
    case 'text': {
      const command = recordedCommand(block.text);
      if (command) return <RecordedCommandView command={command} recorded={block.text} />;
      return markdown && block.text.length <= MAX_MARKDOWN_CHARS ? (
        <MarkdownView text={block.text} />
      ) : (
        <CollapsibleText text={block.text} omittedChars={block.omittedChars} />
      );
    }
    case 'thinking':
      if (block.redacted) return <p className="tx-thinking muted">Thinking (redacted by the API)</p>;
      if (block.text === '') return <p className="tx-thinking muted">Thinking — empty: Claude Code stored no thinking text</p>;
      return (
        <FindAwareDetails className="tx-thinking" summary="Thinking" text={block.text}>
          <CollapsibleText text={block.text} />
        </FindAwareDetails>
      );
    case 'tool-call':
      return <ToolCallView call={block.call} onOpenSubagent={onOpenSubagent} />;
    case 'tool-result':
      return (
        <div className={block.result.isError ? 'tx-result tx-result-error' : 'tx-result'} aria-label="Tool result">
          <div className="tx-result-label">
            {block.result.isError ? 'Tool error' : 'Tool result'}{' '}
            {block.result.text !== '' ? <CopyButton text={block.result.text} label="Copy the tool result" /> : null}
          </div>
          <CollapsibleText text={block.result.text} className="tx-pre" maxLines={12} omittedChars={block.result.omittedChars} />
        </div>
      );
    case 'image':
      return <p className="tx-image">{imageLabel(block.image)}</p>;
    case 'document':
      return (
        <p className="tx-image">
          {['Document', block.mediaType, block.bytes !== null ? formatBytes(block.bytes) : null].filter(Boolean).join(' · ')}
        </p>
      );
    case 'unknown-block':
      return (
        <FindAwareDetails className="tx-raw" summary={`Unknown content block “${block.type}”`} text={block.raw}>
          <pre className="tx-pre">{block.raw}</pre>
        </FindAwareDetails>
      );
    default:
      return assertNever(block);
  }
}

/** What a command Claude Code recorded in tags looks like to the person who ran it. */
function commandShown(command: RecordedCommand) {
  switch (command.kind) {
    case 'slash':
      return (
        <p>
          <code>{command.name}</code>
          {command.args ? ` ${command.args}` : null}
        </p>
      );
    case 'shell':
      return <pre className="tx-pre">{`! ${command.command}`}</pre>;
    case 'output':
      if (command.stdout === '' && command.stderr === '') return <p className="muted small">printed nothing</p>;
      return (
        <>
          {command.stdout !== '' ? <CollapsibleText text={command.stdout} className="tx-pre" maxLines={12} /> : null}
          {command.stderr !== '' ? <CollapsibleText text={command.stderr} className="tx-pre tx-stderr" maxLines={12} /> : null}
        </>
      );
    default:
      return assertNever(command);
  }
}

const COMMAND_LABELS: Readonly<Record<RecordedCommand['kind'], string>> = {
  slash: 'Slash command',
  shell: 'Shell command',
  output: 'Command output',
};

/** A command as the person ran it, or what it printed; the tags Claude Code recorded it in stay one click away. */
function RecordedCommandView({ command, recorded }: { readonly command: RecordedCommand; readonly recorded: string }) {
  return (
    <div className="tx-recorded-command" aria-label={COMMAND_LABELS[command.kind]}>
      {commandShown(command)}
      <FindAwareDetails className="tx-raw" summary="As Claude Code recorded it" text={recorded}>
        <pre className="tx-pre">{recorded}</pre>
      </FindAwareDetails>
    </div>
  );
}

function Header({ entry, label }: { readonly entry: TranscriptEntry; readonly label: string }) {
  return (
    <div className="tx-entry-header">
      <span className="tx-role">{label}</span>
      {entry.isMeta ? <span className="badge muted-badge">meta</span> : null}
      <span className="muted small">{formatTime(entry.timestamp)}</span>
      <MessageActions entry={entry} />
    </div>
  );
}

/** One transcript entry as the viewer shows it; one whose parent is missing from the file says where it is shown. */
export function EntryView(props: EntryViewProps) {
  const { entry } = props;
  if (entry.danglingParentUuid === null) return <EntryBodyView {...props} />;
  return (
    <>
      <p className="tx-dangling muted small" role="note">
        The line this entry follows ({entry.danglingParentUuid.slice(0, 8)}…) is in no line of the file: it is shown after the line before
        it.
      </p>
      <EntryBodyView {...props} />
    </>
  );
}

function EntryBodyView({ entry, onOpenSubagent, continued = false }: EntryViewProps) {
  const body = entry.body;
  switch (body.kind) {
    case 'user': {
      const onlyResults = body.blocks.length > 0 && body.blocks.every((block) => block.kind === 'tool-result');
      return (
        <article
          className={onlyResults ? 'tx-entry tx-tool-results' : 'tx-entry tx-user'}
          aria-label={onlyResults ? 'Tool results' : 'User message'}
        >
          <Header entry={entry} label={onlyResults ? 'Tool results' : entry.isMeta ? 'Injected' : 'You'} />
          {body.blocks.map((block, index) => (
            <BlockView key={index} block={block} markdown={false} onOpenSubagent={onOpenSubagent} />
          ))}
        </article>
      );
    }
    case 'assistant':
      return (
        <article className={continued ? 'tx-entry tx-assistant tx-continued' : 'tx-entry tx-assistant'} aria-label="Assistant message">
          {continued ? (
            <div className="tx-entry-header tx-continued-header">
              <MessageActions entry={entry} />
            </div>
          ) : (
            <Header entry={entry} label={body.model ? `Claude · ${body.model}` : 'Claude'} />
          )}
          {body.isApiError ? <span className="badge warn">API error</span> : null}
          {body.blocks.map((block, index) => (
            <BlockView key={index} block={block} markdown onOpenSubagent={onOpenSubagent} />
          ))}
        </article>
      );
    case 'compact-summary':
      return (
        <article className="tx-entry tx-compact-summary" aria-label="Compaction summary">
          <FindAwareDetails summary="Summary Claude Code kept of the earlier conversation" text={body.text}>
            <CollapsibleText text={body.text} maxLines={60} maxChars={20000} omittedChars={body.omittedChars} />
          </FindAwareDetails>
        </article>
      );
    case 'compact-boundary':
      return (
        <div className="tx-divider" role="separator" aria-label="Conversation compacted">
          <span>
            Conversation compacted{body.trigger ? ` (${body.trigger})` : ''}
            {body.preTokens !== null ? ` · ${formatCount(body.preTokens)} tokens` : ''}
            {body.postTokens !== null ? ` → ${formatCount(body.postTokens)}` : ''} · the history above is what came before
          </span>
        </div>
      );
    case 'system': {
      const command = recordedCommand(body.text);
      return (
        <div className={body.level === 'error' ? 'tx-system tx-system-error' : 'tx-system'} aria-label="System entry">
          <span className="tx-role">{body.subtype ?? 'system'}</span>{' '}
          {command ? (
            <RecordedCommandView command={command} recorded={body.text} />
          ) : (
            <CollapsibleText text={body.text} maxLines={4} maxChars={600} className="tx-inline-text" />
          )}
        </div>
      );
    }
    case 'attachment':
      return <AttachmentView body={body} />;
    case 'progress':
      return (
        <div className="tx-system" aria-label="Progress entry">
          <span className="tx-role">progress · {body.dataType ?? 'unknown'}</span> <span className="tx-inline-text">{body.text}</span>
        </div>
      );
    case 'metadata':
      return (
        <div className="tx-system" aria-label="Metadata entry">
          <span className="tx-role">{entry.type}</span> <span className="tx-inline-text">{body.text}</span>
        </div>
      );
    case 'summary':
      return (
        <div className="tx-system" aria-label="Summary entry">
          <span className="tx-role">summary</span> <span className="tx-inline-text">{body.summary}</span>
        </div>
      );
    case 'unknown':
      return (
        <article className="tx-entry tx-unknown" aria-label="Unknown entry">
          <Header entry={entry} label={`Unknown entry type “${entry.type || '(none)'}”`} />
          <CollapsibleText text={body.raw} className="tx-pre" maxLines={8} omittedChars={body.omittedChars} />
        </article>
      );
    case 'unreadable':
      return (
        <div className="tx-system tx-system-error" aria-label="Unreadable line">
          Line {entry.line} ({formatBytes(entry.bytes)}) could not be read: {body.reason.replace('-', ' ')}
        </div>
      );
    default:
      return assertNever(body);
  }
}
