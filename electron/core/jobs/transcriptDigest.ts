import { isMeaningfulPrompt } from '../../../shared/claude/promptText';
import { fileLines } from './transcriptAccess';

/** One session file to read, oldest first. */
export interface DigestSession {
  readonly sessionId: string;
  readonly file: string;
}

export interface DigestRange {
  /** First and last human prompt to include, counting from 1; open ends read to the start or the end. */
  readonly fromTurn?: number;
  readonly toTurn?: number;
}

/** A piece of conversation small enough for one extraction pass. */
export interface DigestChunk {
  readonly text: string;
  readonly messages: number;
}

/** One message's text is cut beyond this, so a pasted log cannot crowd out the conversation. */
const MAX_MESSAGE_CHARS = 4000;
const MAX_TOOL_CHARS = 300;
/** Lines larger than this are inline images or huge outputs: nothing to remember there. */
const MAX_PARSED_LINE_BYTES = 2 * 1024 * 1024;

function cut(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max)} [… ${trimmed.length - max} characters left out]` : trimmed;
}

function blocksOf(content: unknown): readonly Record<string, unknown>[] {
  return Array.isArray(content) ? content.filter((b): b is Record<string, unknown> => typeof b === 'object' && b !== null) : [];
}

function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return blocksOf(content)
    .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .join(' ');
}

interface RenderedLine {
  readonly startsTurn: boolean;
  readonly pieces: readonly string[];
}

/** The readable pieces of one transcript entry, or null for entries an extraction should not see. */
export function renderEntry(entry: Record<string, unknown>): RenderedLine | null {
  if (entry.isSidechain === true || entry.isMeta === true || entry.isCompactSummary === true || entry.isApiErrorMessage === true)
    return null;
  const message = entry.message as { content?: unknown; model?: unknown } | undefined;
  if (!message || typeof message !== 'object') return null;
  if (entry.type === 'user') {
    if (typeof message.content === 'string') {
      return isMeaningfulPrompt(message.content)
        ? { startsTurn: true, pieces: [`[user] ${cut(message.content, MAX_MESSAGE_CHARS)}`] }
        : null;
    }
    const pieces: string[] = [];
    let startsTurn = false;
    for (const block of blocksOf(message.content)) {
      if (block.type === 'text' && typeof block.text === 'string' && isMeaningfulPrompt(block.text)) {
        pieces.push(`[user] ${cut(block.text, MAX_MESSAGE_CHARS)}`);
        startsTurn = true;
      } else if (block.type === 'tool_result') {
        const text = toolResultText(block.content);
        if (text.trim() !== '') pieces.push(`[tool result${block.is_error === true ? ', error' : ''}] ${cut(text, MAX_TOOL_CHARS)}`);
      }
    }
    return pieces.length > 0 ? { startsTurn, pieces } : null;
  }
  if (entry.type === 'assistant' && message.model !== '<synthetic>') {
    const pieces: string[] = [];
    for (const block of blocksOf(message.content)) {
      if (block.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '')
        pieces.push(`[assistant] ${cut(block.text, MAX_MESSAGE_CHARS)}`);
      else if (block.type === 'tool_use' && typeof block.name === 'string')
        pieces.push(`[assistant used ${block.name}] ${cut(JSON.stringify(block.input ?? {}), MAX_TOOL_CHARS)}`);
    }
    return pieces.length > 0 ? { startsTurn: false, pieces } : null;
  }
  return null;
}

function parseLine(bytes: Buffer): Record<string, unknown> | null {
  if (bytes.length === 0 || bytes.length > MAX_PARSED_LINE_BYTES) return null;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Streams sessions into conversation chunks of at most `chunkChars` characters each: the human prompts,
 * the assistant's text, short notes of tool calls and results, each message led by its line in the session's
 * JSONL file (`(line 12) [user] …`) so the model can cite it. Turns outside the range are skipped; a
 * message repeated by a resumed session (same uuid) is read once.
 */
export async function* digestChunks(
  sessions: readonly DigestSession[],
  range: DigestRange,
  chunkChars: number,
  signal: AbortSignal,
): AsyncGenerator<DigestChunk> {
  const seen = new Set<string>();
  let text = '';
  let messages = 0;
  for (const session of sessions) {
    let turn = 0;
    let header = `=== Session ${session.sessionId} ===\n`;
    for await (const { bytes, lineNumber } of fileLines(session.file, signal)) {
      const entry = parseLine(bytes);
      if (!entry) continue;
      if (typeof entry.uuid === 'string') {
        if (seen.has(entry.uuid)) continue;
        seen.add(entry.uuid);
      }
      const rendered = renderEntry(entry);
      if (!rendered) continue;
      if (rendered.startsTurn) turn++;
      if ((range.fromTurn !== undefined && turn < range.fromTurn) || (range.toTurn !== undefined && turn > range.toTurn)) continue;
      const body = `(line ${lineNumber}) ${rendered.pieces.join('\n')}\n`;
      if (text !== '' && text.length + header.length + body.length > chunkChars) {
        yield { text, messages };
        text = '';
        messages = 0;
        header ||= `=== Session ${session.sessionId} (continued) ===\n`;
      }
      text += header + body;
      header = '';
      messages++;
    }
  }
  if (text !== '') yield { text, messages };
}
