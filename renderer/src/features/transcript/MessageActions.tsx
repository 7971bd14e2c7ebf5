import type { TranscriptEntry } from '../../../../shared/transcript/transcriptEntry';
import { entryText } from '../../../../shared/transcript/entryText';
import { CopyButton } from '../../components/CopyButton';
import { openTranscript, transcriptLink } from '../../stores/navigationStore';
import { useTranscriptStore } from './transcriptStore';

/** What "copy message" copies: what was said (the prose), or everything shown when the message holds only tool calls. */
function messageText(entry: TranscriptEntry): string {
  const body = entry.body;
  if (body.kind === 'user' || body.kind === 'assistant') {
    const prose = body.blocks
      .map((block) => (block.kind === 'text' ? block.text : ''))
      .filter((text) => text !== '')
      .join('\n\n');
    if (prose !== '') return prose;
  }
  return entryText(entry);
}

/** Beside a message's header: its line, as a link to it, and buttons to copy the message and the link. */
export function MessageActions({ entry }: { readonly entry: TranscriptEntry }) {
  const session = useTranscriptStore((s) => s.session);
  const agentId = useTranscriptStore((s) => s.view.agentId);
  if (!session) return <span className="muted small tx-line">line {entry.line}</span>;
  const target = { ...session, line: entry.line, agentId };
  const link = transcriptLink(target);
  return (
    <span className="tx-line tx-message-actions">
      <a
        className="small"
        href={link}
        title="Link to this message"
        onClick={(event) => {
          event.preventDefault();
          openTranscript(target);
        }}
      >
        line {entry.line}
      </a>
      <CopyButton text={link} label={`Copy a link to line ${entry.line}`}>
        Link
      </CopyButton>
      <CopyButton text={() => messageText(entry)} label={`Copy the message on line ${entry.line}`} />
    </span>
  );
}
