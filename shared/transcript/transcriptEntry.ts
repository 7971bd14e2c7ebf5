/**
 * Normalised transcript entries: one per JSONL line, kind-tagged and readonly, the same shape for the viewer,
 * the exporter and `ccmem transcript --json`. Raw Claude Code lines vary by version (claude-code-state.md §2);
 * everything that does not fit a known shape is kept as `unknown` with its raw text, never dropped.
 */

export interface ImagePlaceholder {
  readonly mediaType: string | null;
  /** Decoded size of an inline base64 image, or null when the image is referenced rather than inline. */
  readonly bytes: number | null;
}

/** One hunk of a unified diff; `lines` start with ' ', '-' or '+'. */
export interface DiffHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

export interface FileEdit {
  readonly filePath: string;
  readonly hunks: readonly DiffHunk[];
}

export interface BashOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly interrupted: boolean;
}

/**
 * A tool output too big for the transcript: Claude Code kept a 2 KB preview in the result (`<persisted-output>`) and
 * wrote the whole output to `<session>/tool-results/<fileName>` (a sub-agent's too go to its session's folder).
 */
export interface PersistedOutput {
  /** The file's name in the session's `tool-results/` folder. */
  readonly fileName: string;
  /** The path as Claude Code recorded it (on the machine that wrote it). */
  readonly recordedPath: string;
  /** Its size when Claude Code recorded one (`toolUseResult.persistedOutputSize`), else null. */
  readonly bytes: number | null;
}

/** A tool's answer as Claude Code recorded it: the `tool_result` block plus the tool-specific `toolUseResult`. */
export interface ToolResult {
  readonly toolUseId: string;
  readonly isError: boolean;
  readonly text: string;
  /** Characters cut from `text` to keep a page small; the full text stays in the file. */
  readonly omittedChars: number;
  readonly images: readonly ImagePlaceholder[];
  readonly bash: BashOutput | null;
  readonly edit: FileEdit | null;
  /** The sub-agent this result came from (`toolUseResult.agentId`), when the tool started one. */
  readonly agentId: string | null;
  /** Where the whole output is when `text` is only Claude Code's preview of it; null otherwise. */
  readonly persistedOutput: PersistedOutput | null;
  /** The line the result was read from. */
  readonly line: number;
}

/** What a PreToolUse/PostToolUse hook reported for one tool call (a `hook_*` attachment line). */
export interface HookRun {
  /** `PreToolUse`, `PostToolUse`, … */
  readonly event: string | null;
  /** Claude Code's name for it, e.g. `PreToolUse:Write`. */
  readonly name: string | null;
  /** The attachment type: `hook_success`, `hook_non_blocking_error`, `hook_blocking_error`, … */
  readonly outcome: string;
  readonly command: string | null;
  readonly exitCode: number | null;
  /** What the hook said: its content, else its output and errors. */
  readonly text: string;
  /** The tool call it ran for. */
  readonly toolUseId: string | null;
  /** The line the hook's result was read from. */
  readonly line: number;
}

export interface SubagentLink {
  readonly agentId: string;
  readonly agentType: string | null;
  readonly description: string | null;
}

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The input as pretty JSON (cut to a readable size). */
  readonly input: string;
  /** One line that says what the call does: a command, a path, a pattern, a description. */
  readonly summary: string;
  readonly bashCommand: string | null;
  /** Edit/MultiEdit/Write as a diff (from the recorded patch when the result is attached, else from the input). */
  readonly edit: FileEdit | null;
  /** Filled in when the call's result was found (pages attach it; the CLI keeps results as their own entries). */
  readonly result: ToolResult | null;
  /** The sub-agent run this call started (Agent/Task), when it could be linked. */
  readonly subagent: SubagentLink | null;
  /** PreToolUse/PostToolUse hooks that ran for this call (pages attach them; the CLI keeps them as entries of their own). */
  readonly hooks: readonly HookRun[];
}

export type ContentBlock =
  | { readonly kind: 'text'; readonly text: string; readonly omittedChars: number }
  | { readonly kind: 'thinking'; readonly text: string; readonly redacted: boolean }
  | { readonly kind: 'tool-call'; readonly call: ToolCall }
  | { readonly kind: 'tool-result'; readonly result: ToolResult }
  | { readonly kind: 'image'; readonly image: ImagePlaceholder }
  | { readonly kind: 'document'; readonly mediaType: string | null; readonly bytes: number | null }
  | { readonly kind: 'unknown-block'; readonly type: string; readonly raw: string };

export interface TokenUsage {
  readonly input: number;
  readonly output: number;
  readonly cacheCreation: number;
  readonly cacheRead: number;
}

export type EntryBody =
  | { readonly kind: 'user'; readonly blocks: readonly ContentBlock[] }
  | {
      readonly kind: 'assistant';
      readonly model: string | null;
      readonly messageId: string | null;
      readonly blocks: readonly ContentBlock[];
      readonly stopReason: string | null;
      readonly usage: TokenUsage | null;
      readonly isApiError: boolean;
    }
  | { readonly kind: 'compact-summary'; readonly text: string; readonly omittedChars: number }
  | {
      readonly kind: 'compact-boundary';
      readonly trigger: string | null;
      readonly preTokens: number | null;
      readonly postTokens: number | null;
      readonly logicalParentUuid: string | null;
    }
  | { readonly kind: 'system'; readonly subtype: string | null; readonly level: string | null; readonly text: string }
  | {
      readonly kind: 'attachment';
      readonly attachmentType: string | null;
      readonly text: string;
      /** Set for a tool hook's result (`hook_*` attachments with a `toolUseID`). */
      readonly hook: HookRun | null;
    }
  | { readonly kind: 'progress'; readonly dataType: string | null; readonly agentId: string | null; readonly text: string }
  | { readonly kind: 'summary'; readonly summary: string; readonly leafUuid: string | null }
  /** Known bookkeeping lines without a place in the conversation: titles, modes, snapshots, queue operations. */
  | { readonly kind: 'metadata'; readonly text: string }
  /** A line of a type this app does not know: shown raw. */
  | { readonly kind: 'unknown'; readonly raw: string; readonly omittedChars: number }
  /** A line that could not be read as a JSON object: counted, and shown as a placeholder. */
  | { readonly kind: 'unreadable'; readonly reason: UnreadableReason };

export type UnreadableReason = 'invalid-json' | 'invalid-utf8' | 'binary' | 'too-long';

export interface TranscriptEntry {
  /** 1-based line number in the file. */
  readonly line: number;
  /** Byte offset of the line in the file, and its length without the newline. */
  readonly offset: number;
  readonly bytes: number;
  /** The raw `type` field ('' when the line has none). */
  readonly type: string;
  readonly uuid: string | null;
  readonly parentUuid: string | null;
  readonly timestamp: string | null;
  readonly isSidechain: boolean;
  readonly isMeta: boolean;
  readonly agentId: string | null;
  /**
   * The parent this line names (its `parentUuid`, or a compaction's `logicalParentUuid`) when that uuid is in no
   * line of the file: the line is then shown after the chain line before it, so nothing before it is lost.
   */
  readonly danglingParentUuid: string | null;
  readonly body: EntryBody;
}

/** The metadata entry types Claude Code writes (claude-code-state.md §2.3); anything else is unknown. */
export const METADATA_TYPES: ReadonlySet<string> = new Set([
  'custom-title',
  'ai-title',
  'last-prompt',
  'task-summary',
  'tag',
  'agent-name',
  'agent-color',
  'agent-setting',
  'pr-link',
  'mode',
  'permission-mode',
  'worktree-state',
  'content-replacement',
  'file-history-snapshot',
  'attribution-snapshot',
  'queue-operation',
  'speculation-accept',
  'marble-origami-commit',
  'marble-origami-snapshot',
  'atis-latch',
  'cost-state',
  'api-request',
  'api-request-blob',
  'api-request-shape',
]);

/**
 * Lines Claude Code 2.1.3xx writes to record what it sent to the API (request parameters, message blobs, the
 * prompt's shape, the system prompt snapshot) and its running cost: not part of the conversation. Views and
 * searches leave them out unless asked, and the catalog reads nothing of them but their envelope.
 */
export const REQUEST_RECORD_TYPES: ReadonlySet<string> = new Set([
  'api-request',
  'api-request-blob',
  'api-request-shape',
  'cost-state',
  'atis-latch',
]);

/** Attachment lines (`attachment.type`) that are request records too: the full prompt as sent (~140 KB a session). */
export const REQUEST_RECORD_ATTACHMENTS: ReadonlySet<string> = new Set(['prompt_snapshot']);

/** Whether an indexed line is a request record (see `REQUEST_RECORD_TYPES`). */
export function isRequestRecord(line: { readonly type: string; readonly attachmentType: string | null }): boolean {
  return REQUEST_RECORD_TYPES.has(line.type) || (line.attachmentType !== null && REQUEST_RECORD_ATTACHMENTS.has(line.attachmentType));
}

/** A PreToolUse/PostToolUse hook's result (`hook_success`, `hook_non_blocking_error`, …), written for one tool call. */
export function isToolHook(line: {
  readonly type: string;
  readonly attachmentType: string | null;
  readonly attachmentToolUseId: string | null;
}): boolean {
  return line.type === 'attachment' && line.attachmentToolUseId !== null && (line.attachmentType?.startsWith('hook_') ?? false);
}

/** Types that take part in the conversation chain (`isTranscriptMessage`), plus legacy `progress`. */
export const CHAIN_TYPES: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'attachment']);
