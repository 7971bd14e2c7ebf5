import { bodyStartOf } from '../../../../shared/memory/frontmatterBlock';
import { contentHash } from '../../fs/contentHash';

/** The transcript a line came from: a session's main file, or one of its sub-agents' files. */
export interface TranscriptFileRef {
  readonly path: string;
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  /** The sub-agent's id for `agent-<id>.jsonl` files, else null. */
  readonly agentId: string | null;
}

interface EventBase {
  readonly file: TranscriptFileRef;
  readonly offset: number;
  readonly timeMs: number;
  readonly uuid: string | null;
}

/** A Write / Edit / MultiEdit tool call on a file (claude-code-state.md §2.5, §2.6). */
export interface ToolWriteEvent extends EventBase {
  readonly kind: 'tool-write';
  readonly tool: string;
  readonly filePath: string;
  /** sha256 of a Write's whole content, else null. */
  readonly contentHash: string | null;
  /**
   * sha256 of a Write's content after its frontmatter (see `bodyHashOf`): Claude Code 2.1.146+ rewrites the
   * frontmatter of every memory file it writes, so the whole content never matches the file, the rest does.
   */
  readonly bodyHash: string | null;
  /** The texts an Edit or MultiEdit put in, to check them against the new version. */
  readonly newStrings: readonly string[];
}

/** A shell command that removes or moves files: how a session deletes a memory. */
export interface ToolShellEvent extends EventBase {
  readonly kind: 'tool-shell';
  readonly command: string;
}

/** `system/memory_saved`: Claude Code saved memories outside the turn (extraction), or `verb: "Improved"` after a dream. */
export interface MemorySavedEvent extends EventBase {
  readonly kind: 'memory-saved';
  readonly writtenPaths: readonly string[];
  readonly verb: string | null;
}

/** A turn ended (`system/turn_duration`, or an assistant answer that stopped with `end_turn`). */
export interface TurnEndEvent extends EventBase {
  readonly kind: 'turn-end';
}

/** A prompt the person typed: where a turn starts. */
export interface PromptEvent extends EventBase {
  readonly kind: 'prompt';
}

export type TranscriptEvent = ToolWriteEvent | ToolShellEvent | MemorySavedEvent | TurnEndEvent | PromptEvent;

const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit']);

/** The hash of a memory file's text after its frontmatter, blank lines at its start left out (stamping drops one). */
export function bodyHashOf(text: string): string {
  return contentHash(text.slice(bodyStartOf(text)).replace(/^(?:\r?\n)+/, ''));
}
const SHELL_TOOLS = new Set(['Bash', 'PowerShell']);
const REMOVING_COMMAND = /(^|[\s;&|(])(rm|unlink|mv|del|Remove-Item|Move-Item)(\s|$)/;

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function timeOf(record: Record<string, unknown>): number | null {
  const stamp = text(record.timestamp);
  if (!stamp) return null;
  const ms = Date.parse(stamp);
  return Number.isNaN(ms) ? null : ms;
}

function toolEvents(record: Record<string, unknown>, base: EventBase): TranscriptEvent[] {
  const message = record.message as { content?: unknown; stop_reason?: unknown } | undefined;
  const content = Array.isArray(message?.content) ? (message.content as unknown[]) : [];
  const events: TranscriptEvent[] = [];
  for (const block of content) {
    const b = block as { type?: unknown; name?: unknown; input?: unknown } | null;
    if (!b || b.type !== 'tool_use' || typeof b.name !== 'string') continue;
    const input = (b.input ?? {}) as Record<string, unknown>;
    if (WRITE_TOOLS.has(b.name)) {
      const filePath = text(input.file_path);
      if (!filePath) continue;
      const newStrings: string[] = [];
      if (b.name === 'Edit' && typeof input.new_string === 'string') newStrings.push(input.new_string);
      if (b.name === 'MultiEdit' && Array.isArray(input.edits))
        for (const edit of input.edits as { new_string?: unknown }[])
          if (typeof edit?.new_string === 'string') newStrings.push(edit.new_string);
      const written = b.name === 'Write' ? text(input.content) : null;
      events.push({
        ...base,
        kind: 'tool-write',
        tool: b.name,
        filePath,
        contentHash: written === null ? null : contentHash(written),
        bodyHash: written === null ? null : bodyHashOf(written),
        newStrings,
      });
    } else if (SHELL_TOOLS.has(b.name)) {
      const command = text(input.command);
      if (command && REMOVING_COMMAND.test(command)) events.push({ ...base, kind: 'tool-shell', command });
    }
  }
  if (events.length === 0 && message?.stop_reason === 'end_turn') events.push({ ...base, kind: 'turn-end' });
  return events;
}

/** Whether a user line is a prompt a person typed (not a tool result, meta line, command wrapper or compaction summary). */
export function isTypedPrompt(record: Record<string, unknown>): boolean {
  if (record.isMeta === true || record.isCompactSummary === true || record.isSidechain === true) return false;
  const content = (record.message as { content?: unknown } | undefined)?.content;
  if (typeof content === 'string') return !content.startsWith('<');
  return Array.isArray(content) && content.every((block) => (block as { type?: unknown } | null)?.type === 'text');
}

/**
 * The memory-relevant events in one transcript record, or none. Unknown shapes yield nothing rather than
 * an error: transcripts change format often and are never trusted.
 */
export function eventsOfRecord(record: Record<string, unknown>, file: TranscriptFileRef, offset: number): TranscriptEvent[] {
  const timeMs = timeOf(record);
  if (timeMs === null) return [];
  const base: EventBase = { file, offset, timeMs, uuid: text(record.uuid) };
  switch (record.type) {
    case 'assistant':
      return toolEvents(record, base);
    case 'system':
      if (record.subtype === 'turn_duration') return [{ ...base, kind: 'turn-end' }];
      if (record.subtype === 'memory_saved') {
        const paths = Array.isArray(record.writtenPaths) ? record.writtenPaths.filter((p): p is string => typeof p === 'string') : [];
        return [{ ...base, kind: 'memory-saved', writtenPaths: paths, verb: text(record.verb) }];
      }
      return [];
    case 'user':
      return isTypedPrompt(record) ? [{ ...base, kind: 'prompt' }] : [];
    default:
      return [];
  }
}

/** Byte patterns a line must contain to be worth parsing: most transcript lines are skipped without JSON.parse. */
const INTERESTING = ['"tool_use"', '"memory_saved"', '"turn_duration"', '"end_turn"', '"type":"user"'].map((s) => Buffer.from(s));
const TOOL_RESULT = Buffer.from('"tool_result"');
const USER = INTERESTING[4];

export function mayHoldEvent(line: Buffer): boolean {
  for (const pattern of INTERESTING) {
    if (!line.includes(pattern)) continue;
    // Tool results are the bulk of user lines and never start a turn.
    if (pattern === USER && line.includes(TOOL_RESULT)) continue;
    return true;
  }
  return false;
}

const TIMESTAMP = /"timestamp":"([^"]{10,40})"/g;

/** The last top-level-looking timestamp on a line, without parsing it; good enough to know when to stop reading back. */
export function roughTimeOf(line: Buffer): number | null {
  const tail = line.length > 4096 ? line.subarray(line.length - 4096) : line;
  let last: string | null = null;
  for (const match of tail.toString('utf8').matchAll(TIMESTAMP)) last = match[1];
  if (last === null) return null;
  const ms = Date.parse(last);
  return Number.isNaN(ms) ? null : ms;
}
