import { assertNever } from '../result';
import type { ContentBlock, ToolCall, TranscriptEntry } from './transcriptEntry';

function callText(call: ToolCall): string {
  const parts = [`${call.name} ${call.summary}`, call.input];
  if (call.result) parts.push(call.result.text, call.result.bash?.stdout ?? '', call.result.bash?.stderr ?? '');
  return parts.filter((part) => part !== '').join('\n');
}

function blockText(block: ContentBlock): string {
  switch (block.kind) {
    case 'text':
      return block.text;
    case 'thinking':
      return block.text;
    case 'tool-call':
      return callText(block.call);
    case 'tool-result':
      return [block.result.text, block.result.bash?.stdout ?? '', block.result.bash?.stderr ?? ''].filter((part) => part !== '').join('\n');
    case 'image':
    case 'document':
      return '';
    case 'unknown-block':
      return block.raw;
    default:
      return assertNever(block);
  }
}

/** Everything a reader can see of an entry, as plain text: what find-in-transcript searches and previews show. */
export function entryText(entry: TranscriptEntry): string {
  const body = entry.body;
  switch (body.kind) {
    case 'user':
    case 'assistant':
      return body.blocks
        .map(blockText)
        .filter((text) => text !== '')
        .join('\n');
    case 'compact-summary':
      return body.text;
    case 'compact-boundary':
      return 'Conversation compacted';
    case 'system':
    case 'attachment':
    case 'progress':
    case 'metadata':
      return body.text;
    case 'summary':
      return body.summary;
    case 'unknown':
      return body.raw;
    case 'unreadable':
      return '';
    default:
      return assertNever(body);
  }
}

/** The first words of an entry on one line. */
export function entryPreview(entry: TranscriptEntry, maxChars = 120): string {
  const text = entryText(entry).replace(/\s+/g, ' ').trim();
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

/** A snippet of `text` around the first case-insensitive occurrence of `query`. */
export function snippetAround(text: string, query: string, radius = 60): string {
  const flat = text.replace(/\s+/g, ' ');
  const at = flat.toLowerCase().indexOf(query.toLowerCase());
  if (at < 0) return flat.slice(0, radius * 2);
  const start = Math.max(0, at - radius);
  const end = Math.min(flat.length, at + query.length + radius);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}
