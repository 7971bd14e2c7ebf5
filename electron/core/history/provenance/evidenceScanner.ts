import { LineFields, scanFields } from '../../jsonl/jsonFieldScanner';
import { isTypedPrompt } from '../attribution/transcriptEvents';
import type { BackupRecord, CallRecord, EvidenceRecord, EvidenceSource, ResultRecord } from './memoryEvidence';
import type { PatchHunk, TextEdit } from './textEdits';
import type { TranscriptRef } from './transcriptFeed';

/** What a transcript's reading leaves for the next read of its appended bytes. */
export interface ScanCarry {
  /** The newest typed prompt: the turn later lines belong to. */
  readonly lastPrompt: { readonly uuid: string; readonly timeMs: number } | null;
  readonly cwd: string | null;
  /** The session id a 2.0 sub-agent file's lines carry. */
  readonly sessionId: string | null;
  /** Memory tool calls whose result has not been read yet. */
  readonly pending: readonly string[];
  /** File-history backups (and "did not exist" marks) already taken from this file's snapshots. */
  readonly backups: readonly string[];
}

export const EMPTY_CARRY: ScanCarry = { lastPrompt: null, cwd: null, sessionId: null, pending: [], backups: [] };

export interface ScanContext {
  /** Whether a typed path is worth keeping (a memory file, or shaped like one). */
  readonly isMemoryPath: (path: string, cwd: string | null) => boolean;
  /** Extra byte patterns of memory folders whose path does not contain "memory" (moved by `autoMemoryDirectory`). */
  readonly extraNeedles: readonly Buffer[];
  /** A sub-agent's turn: the parent session's prompt at that time, when known. */
  readonly parentTurnAt: (sessionId: string, timeMs: number) => string | null;
  /** A typed prompt of a main session file (for its sub-agents' turns). */
  readonly onPrompt: (sessionId: string, uuid: string, timeMs: number) => void;
}

const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit']);
const SHELL_TOOLS = new Set(['Bash', 'PowerShell']);
const REMOVING_COMMAND = /(^|[\s;&|(])(rm|unlink|mv|del|Remove-Item|Move-Item)(\s|$)/;
/** Texts longer than this are not memory files; such a call is kept without its text. */
const MAX_TEXT_CHARS = 1024 * 1024;
/** A prompt line this long (pasted images, huge pastes) is read for its envelope only, never parsed. */
const MAX_PARSED_PROMPT_BYTES = 256 * 1024;
const MAX_COMMAND_CHARS = 4096;

const b = (s: string): Buffer => Buffer.from(s);
const TOOL_USE = b('"tool_use"');
const TOOL_RESULT = b('"tool_result"');
const MEMORY_SAVED = b('"memory_saved"');
const SNAPSHOT = b('"file-history-snapshot"');
const USER = b('"type":"user"');
const MEMORY = b('memory');
const TOOL_NAMES = [...WRITE_TOOLS, ...SHELL_TOOLS].map((name) => b(`"name":"${name}"`));
/** What a prompt line too long to parse is read for: its type, turn and time, and the flags that make it no typed prompt. */
const PROMPT_ENVELOPE = new LineFields({
  type: 'value',
  uuid: 'value',
  timestamp: 'value',
  isMeta: 'value',
  isSidechain: 'value',
  isCompactSummary: 'value',
});

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function timeOf(value: unknown): number | null {
  const text = str(value);
  if (!text) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

function capped(text: string | null): string | null {
  return text !== null && text.length <= MAX_TEXT_CHARS ? text : null;
}

function editsOf(tool: string, input: Record<string, unknown>): TextEdit[] | null {
  const one = (edit: Record<string, unknown>): TextEdit | null => {
    const oldString = str(edit.old_string);
    const newString = str(edit.new_string);
    if (oldString === null || newString === null) return null;
    return { oldString, newString, replaceAll: edit.replace_all === true };
  };
  if (tool === 'Edit') {
    const edit = one(input);
    return edit ? [edit] : null;
  }
  if (tool === 'MultiEdit' && Array.isArray(input.edits)) {
    const edits = (input.edits as unknown[]).map((e) => (e && typeof e === 'object' ? one(e as Record<string, unknown>) : null));
    return edits.every((e): e is TextEdit => e !== null) && edits.length > 0 ? edits : null;
  }
  return null;
}

function hunksOf(value: unknown): PatchHunk[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const hunks: PatchHunk[] = [];
  for (const raw of value as unknown[]) {
    const h = raw as Partial<PatchHunk> | null;
    if (
      !h ||
      typeof h.oldStart !== 'number' ||
      typeof h.oldLines !== 'number' ||
      typeof h.newStart !== 'number' ||
      typeof h.newLines !== 'number' ||
      !Array.isArray(h.lines) ||
      !h.lines.every((line) => typeof line === 'string')
    )
      return null;
    hunks.push({ oldStart: h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines, lines: h.lines });
  }
  return hunks;
}

/**
 * Reads one transcript's lines for memory evidence: Write/Edit/MultiEdit calls on memory files and their
 * results (the bytes Claude Code really wrote, the file before), shell calls removing them, `memory_saved`
 * lines and file-history snapshots of memory files. Each line is first tested for a few byte patterns; only
 * the few that may hold evidence are parsed, so a gigabyte of transcripts costs little more than reading it.
 */
export class EvidenceScanner {
  private lastPrompt: ScanCarry['lastPrompt'];
  private cwd: string | null;
  private sessionId: string | null;
  private readonly pending: Set<string>;
  private pendingNeedles: Buffer[] = [];
  private readonly backups: Set<string>;
  readonly records: EvidenceRecord[] = [];
  /** Backups found in snapshots whose bytes the caller reads (the scan itself never waits on a file). */
  readonly backupRequests: BackupRecord[] = [];

  constructor(
    private readonly ref: TranscriptRef,
    carry: ScanCarry,
    private readonly context: ScanContext,
  ) {
    this.lastPrompt = carry.lastPrompt;
    this.cwd = carry.cwd;
    this.sessionId = carry.sessionId;
    this.pending = new Set(carry.pending);
    this.backups = new Set(carry.backups);
    this.refreshNeedles();
  }

  carry(): ScanCarry {
    return {
      lastPrompt: this.lastPrompt,
      cwd: this.cwd,
      sessionId: this.sessionId,
      pending: [...this.pending],
      backups: [...this.backups],
    };
  }

  /** One complete line (the buffer is only valid during the call). */
  line(line: Buffer, lineNumber: number): void {
    if (line.includes(TOOL_RESULT)) {
      // Tool results never start a turn or call a tool; only the results of pending memory calls matter.
      if (this.pendingNeedles.length > 0 && this.pendingNeedles.some((needle) => line.includes(needle))) this.parse(line, lineNumber);
      return;
    }
    if (line.includes(MEMORY_SAVED)) {
      this.parse(line, lineNumber);
      return;
    }
    if (this.mentionsMemory(line)) {
      const toolCall = line.includes(TOOL_USE) && TOOL_NAMES.some((name) => line.includes(name));
      if (toolCall || line.includes(SNAPSHOT)) {
        this.parse(line, lineNumber);
        return;
      }
    }
    if (line.includes(USER)) this.prompt(line);
  }

  private mentionsMemory(line: Buffer): boolean {
    return line.includes(MEMORY) || this.context.extraNeedles.some((needle) => line.includes(needle));
  }

  private refreshNeedles(): void {
    this.pendingNeedles = [...this.pending].map((id) => b(`"${id}"`));
  }

  private source(record: Record<string, unknown>): EvidenceSource {
    if (this.ref.sessionId === '' && this.sessionId === null) this.sessionId = str(record.sessionId);
    return {
      path: this.ref.path,
      configRoot: this.ref.configRoot,
      slug: this.ref.slug,
      sessionId: this.ref.sessionId || this.sessionId || '',
      agentId: this.ref.agentId,
    };
  }

  private turnAt(source: EvidenceSource, timeMs: number): string | null {
    if (source.agentId === null && this.lastPrompt) return this.lastPrompt.uuid;
    return this.context.parentTurnAt(source.sessionId, timeMs) ?? this.lastPrompt?.uuid ?? null;
  }

  private parse(line: Buffer, lineNumber: number): void {
    let record: unknown;
    try {
      record = JSON.parse(line.toString('utf8'));
    } catch {
      return;
    }
    if (!record || typeof record !== 'object' || Array.isArray(record)) return;
    const raw = record as Record<string, unknown>;
    this.cwd ??= str(raw.cwd);
    if (raw.type === 'file-history-snapshot') this.snapshot(raw, lineNumber);
    else if (raw.type === 'system' && raw.subtype === 'memory_saved') this.saved(raw, lineNumber);
    else if (raw.type === 'assistant') this.calls(raw, lineNumber);
    else if (raw.type === 'user') {
      if (this.pending.size > 0) this.results(raw, lineNumber);
      if (isTypedPrompt(raw)) this.notePrompt(raw);
    }
  }

  private base(raw: Record<string, unknown>, lineNumber: number, n: number, timeMs: number) {
    const source = this.source(raw);
    return {
      v: 1 as const,
      id: `${this.ref.path}#${lineNumber}:${n}`,
      source,
      line: lineNumber,
      timeMs,
      uuid: str(raw.uuid),
      turnUuid: this.turnAt(source, timeMs),
    };
  }

  private calls(raw: Record<string, unknown>, lineNumber: number): void {
    const timeMs = timeOf(raw.timestamp);
    const content = (raw.message as { content?: unknown } | undefined)?.content;
    if (timeMs === null || !Array.isArray(content)) return;
    let n = 0;
    for (const block of content as unknown[]) {
      const call = block as { type?: unknown; id?: unknown; name?: unknown; input?: unknown } | null;
      const tool = str(call?.name);
      const toolUseId = str(call?.id);
      if (!call || call.type !== 'tool_use' || !tool || !toolUseId || !call.input || typeof call.input !== 'object') continue;
      const input = call.input as Record<string, unknown>;
      let record: CallRecord | null = null;
      if (WRITE_TOOLS.has(tool)) {
        const filePath = str(input.file_path);
        if (!filePath || !this.context.isMemoryPath(filePath, this.cwd)) continue;
        record = {
          ...this.base(raw, lineNumber, n++, timeMs),
          kind: 'call',
          tool,
          toolUseId,
          filePath,
          cwd: this.cwd,
          content: tool === 'Write' ? capped(str(input.content)) : null,
          edits: editsOf(tool, input),
          command: null,
        };
      } else if (SHELL_TOOLS.has(tool)) {
        const command = str(input.command);
        if (!command || !REMOVING_COMMAND.test(command) || !command.includes('memory')) continue;
        record = {
          ...this.base(raw, lineNumber, n++, timeMs),
          kind: 'call',
          tool,
          toolUseId,
          filePath: '',
          cwd: this.cwd,
          content: null,
          edits: null,
          command: command.slice(0, MAX_COMMAND_CHARS),
        };
      }
      if (!record) continue;
      this.records.push(record);
      this.pending.add(toolUseId);
    }
    this.refreshNeedles();
  }

  private results(raw: Record<string, unknown>, lineNumber: number): void {
    const timeMs = timeOf(raw.timestamp);
    const content = (raw.message as { content?: unknown } | undefined)?.content;
    if (timeMs === null || !Array.isArray(content)) return;
    const blocks = (content as unknown[]).filter((block) => (block as { type?: unknown } | null)?.type === 'tool_result') as {
      tool_use_id?: unknown;
      is_error?: unknown;
    }[];
    // The structured result belongs to the line's one result; with several it cannot be told whose it is.
    const detail =
      blocks.length === 1 && raw.toolUseResult && typeof raw.toolUseResult === 'object'
        ? (raw.toolUseResult as Record<string, unknown>)
        : null;
    let n = 0;
    for (const block of blocks) {
      const toolUseId = str(block.tool_use_id);
      if (!toolUseId || !this.pending.has(toolUseId)) continue;
      this.pending.delete(toolUseId);
      const failed = block.is_error === true || (typeof raw.toolUseResult === 'string' && raw.toolUseResult.startsWith('Error'));
      const record: ResultRecord = {
        ...this.base(raw, lineNumber, n++, timeMs),
        kind: 'result',
        toolUseId,
        ok: !failed,
        writeType: detail ? str(detail.type) : null,
        content: detail && !failed ? capped(str(detail.content)) : null,
        original: detail && !failed ? capped(str(detail.originalFile) ?? str(detail.originalFileContents)) : null,
        hunks: detail && !failed ? hunksOf(detail.structuredPatch) : null,
      };
      this.records.push(record);
    }
    this.refreshNeedles();
  }

  private saved(raw: Record<string, unknown>, lineNumber: number): void {
    const timeMs = timeOf(raw.timestamp);
    if (timeMs === null) return;
    const paths = Array.isArray(raw.writtenPaths) ? raw.writtenPaths.filter((p): p is string => typeof p === 'string') : [];
    this.records.push({ ...this.base(raw, lineNumber, 0, timeMs), kind: 'saved', verb: str(raw.verb), writtenPaths: paths });
  }

  private snapshot(raw: Record<string, unknown>, lineNumber: number): void {
    const snapshot = raw.snapshot as { trackedFileBackups?: unknown } | undefined;
    const tracked = snapshot?.trackedFileBackups;
    if (!tracked || typeof tracked !== 'object') return;
    let n = 0;
    for (const [filePath, value] of Object.entries(tracked as Record<string, unknown>)) {
      const backup = value as { backupFileName?: unknown; backupTime?: unknown; version?: unknown } | null;
      const timeMs = timeOf(backup?.backupTime);
      if (!backup || timeMs === null || !this.context.isMemoryPath(filePath, this.cwd)) continue;
      const name = str(backup.backupFileName);
      const key = name ?? `${filePath}@absent@${String(backup.version)}`;
      if (this.backups.has(key)) continue;
      this.backups.add(key);
      const record: BackupRecord = {
        ...this.base(raw, lineNumber, n++, timeMs),
        kind: 'backup',
        filePath,
        cwd: this.cwd,
        backupFileName: name,
        text: null,
        unreadable: false,
      };
      if (name === null) this.records.push(record);
      else this.backupRequests.push(record);
    }
  }

  /** Notes where a turn starts; a prompt line too long to parse is read for its envelope only. */
  private prompt(line: Buffer): void {
    if (line.length <= MAX_PARSED_PROMPT_BYTES) {
      let raw: unknown;
      try {
        raw = JSON.parse(line.toString('utf8'));
      } catch {
        return;
      }
      if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return;
      const record = raw as Record<string, unknown>;
      this.cwd ??= str(record.cwd);
      if (record.type === 'user' && isTypedPrompt(record)) this.notePrompt(record);
      return;
    }
    // The byte scanner reads the top-level fields and jumps over the message's strings.
    const envelope = scanFields(line, PROMPT_ENVELOPE, false);
    if (
      !envelope ||
      envelope.type !== 'user' ||
      envelope.isMeta === true ||
      envelope.isSidechain === true ||
      envelope.isCompactSummary === true
    )
      return;
    const uuid = str(envelope.uuid);
    const timeMs = timeOf(envelope.timestamp);
    if (uuid && timeMs !== null) this.setPrompt(uuid, timeMs);
  }

  private notePrompt(record: Record<string, unknown>): void {
    const uuid = str(record.uuid);
    const timeMs = timeOf(record.timestamp);
    if (uuid && timeMs !== null) this.setPrompt(uuid, timeMs);
  }

  private setPrompt(uuid: string, timeMs: number): void {
    this.lastPrompt = { uuid, timeMs };
    if (this.ref.agentId === null && this.ref.sessionId) this.context.onPrompt(this.ref.sessionId, uuid, timeMs);
  }
}
