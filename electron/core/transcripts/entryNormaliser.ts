import { structuredPatch } from 'diff';
import type { IndexedLine } from '../../../shared/transcript/indexedLine';
import {
  METADATA_TYPES,
  type ContentBlock,
  type DiffHunk,
  type EntryBody,
  type FileEdit,
  type HookRun,
  type ImagePlaceholder,
  type PersistedOutput,
  type TokenUsage,
  type ToolCall,
  type ToolResult,
  type TranscriptEntry,
} from '../../../shared/transcript/transcriptEntry';

type JsonObject = Record<string, unknown>;

export interface NormaliseOptions {
  /** Longest text kept per field; the viewer keeps pages small, the CLI keeps everything (Infinity). */
  readonly maxTextChars: number;
}

/** Diffs of edits bigger than this are not computed from the input (Myers diff is quadratic in the worst case). */
const MAX_DIFF_SOURCE_CHARS = 200_000;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function cut(text: string, max: number): { text: string; omittedChars: number } {
  return text.length > max ? { text: text.slice(0, max), omittedChars: text.length - max } : { text, omittedChars: 0 };
}

function compactJson(value: unknown, max: number): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function prettyJson(value: unknown, max: number): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}\n…` : text;
}

/** Decoded size of base64 data, without decoding it. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function imageOf(block: JsonObject): ImagePlaceholder {
  const source = isObject(block.source) ? block.source : {};
  const data = str(source.data);
  return { mediaType: str(source.media_type), bytes: source.type === 'base64' && data !== null ? base64Bytes(data) : null };
}

function usageOf(value: unknown): TokenUsage | null {
  if (!isObject(value)) return null;
  return {
    input: num(value.input_tokens) ?? 0,
    output: num(value.output_tokens) ?? 0,
    cacheCreation: num(value.cache_creation_input_tokens) ?? 0,
    cacheRead: num(value.cache_read_input_tokens) ?? 0,
  };
}

function hunksOf(value: unknown): DiffHunk[] | null {
  if (!Array.isArray(value)) return null;
  const hunks: DiffHunk[] = [];
  for (const hunk of value) {
    if (!isObject(hunk) || !Array.isArray(hunk.lines)) return null;
    hunks.push({
      oldStart: num(hunk.oldStart) ?? 0,
      oldLines: num(hunk.oldLines) ?? 0,
      newStart: num(hunk.newStart) ?? 0,
      newLines: num(hunk.newLines) ?? 0,
      lines: hunk.lines.filter((line): line is string => typeof line === 'string'),
    });
  }
  return hunks;
}

function diffOf(filePath: string, oldText: string, newText: string): DiffHunk[] {
  if (oldText.length + newText.length > MAX_DIFF_SOURCE_CHARS) return [];
  return structuredPatch(filePath, filePath, oldText, newText, undefined, undefined, { context: 3 }).hunks.map((hunk) => ({
    oldStart: hunk.oldStart,
    oldLines: hunk.oldLines,
    newStart: hunk.newStart,
    newLines: hunk.newLines,
    lines: hunk.lines,
  }));
}

/** Edit and MultiEdit calls as a diff computed from their input (the recorded patch replaces it once the result is known). */
function editFromInput(name: string, input: JsonObject): FileEdit | null {
  const filePath = str(input.file_path);
  if (filePath === null) return null;
  if (name === 'Edit') {
    const oldText = str(input.old_string);
    const newText = str(input.new_string);
    return oldText !== null && newText !== null ? { filePath, hunks: diffOf(filePath, oldText, newText) } : null;
  }
  if (name === 'MultiEdit' && Array.isArray(input.edits)) {
    const hunks = input.edits.flatMap((edit) => {
      if (!isObject(edit)) return [];
      const oldText = str(edit.old_string);
      const newText = str(edit.new_string);
      return oldText !== null && newText !== null ? diffOf(filePath, oldText, newText) : [];
    });
    return { filePath, hunks };
  }
  return null;
}

/** One line that says what a tool call does. */
function callSummary(name: string, input: JsonObject): string {
  const pick = (...keys: string[]): string | null => {
    for (const key of keys) {
      const value = str(input[key]);
      if (value !== null && value !== '') return value;
    }
    return null;
  };
  let summary: string | null;
  switch (name) {
    case 'Bash':
      summary = pick('description', 'command');
      break;
    case 'Agent':
    case 'Task': {
      const description = pick('description') ?? '';
      const type = pick('subagent_type');
      summary = type ? `${type}: ${description}` : description;
      break;
    }
    case 'Glob':
    case 'Grep': {
      const pattern = pick('pattern') ?? '';
      const path = pick('path');
      summary = path ? `${pattern} in ${path}` : pattern;
      break;
    }
    case 'TodoWrite':
      summary = Array.isArray(input.todos) ? `${input.todos.length} to-dos` : null;
      break;
    default:
      summary = pick('file_path', 'notebook_path', 'path', 'url', 'query', 'pattern', 'command', 'description', 'prompt');
  }
  const firstLine = (summary ?? '').split('\n')[0];
  return firstLine.length > 200 ? `${firstLine.slice(0, 199)}…` : firstLine;
}

function toolCallOf(block: JsonObject, options: NormaliseOptions): ToolCall {
  const name = str(block.name) ?? '';
  const input = isObject(block.input) ? block.input : {};
  return {
    id: str(block.id) ?? '',
    name,
    input: prettyJson(block.input ?? null, options.maxTextChars),
    summary: callSummary(name, input),
    bashCommand: name === 'Bash' ? str(input.command) : null,
    edit: editFromInput(name, input),
    result: null,
    subagent: null,
    hooks: [],
  };
}

function toolResultText(content: unknown): { text: string; images: ImagePlaceholder[] } {
  if (typeof content === 'string') return { text: content, images: [] };
  const texts: string[] = [];
  const images: ImagePlaceholder[] = [];
  if (Array.isArray(content)) {
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
      else if (block.type === 'image') images.push(imageOf(block));
      else texts.push(compactJson(block, 2000));
    }
  }
  return { text: texts.join('\n'), images };
}

/** `Full output saved to: <path>` inside a `<persisted-output>` preview (Claude Code ≥ 2.1.17). */
const PERSISTED_PATH = /<persisted-output>[\s\S]*?saved to:\s*(\S+)/;

function persistedOutputOf(text: string, details: JsonObject | null): PersistedOutput | null {
  const recordedPath = (details ? str(details.persistedOutputPath) : null) ?? PERSISTED_PATH.exec(text)?.[1] ?? null;
  if (recordedPath === null) return null;
  const fileName = recordedPath.split(/[\\/]/).pop() ?? '';
  if (fileName === '' || fileName === '.' || fileName === '..') return null;
  return { fileName, recordedPath, bytes: details ? num(details.persistedOutputSize) : null };
}

function toolResultOf(block: JsonObject, toolUseResult: unknown, line: number, options: NormaliseOptions): ToolResult {
  const { text, images } = toolResultText(block.content);
  const kept = cut(text, options.maxTextChars);
  const details = isObject(toolUseResult) ? toolUseResult : null;
  let bash: ToolResult['bash'] = null;
  if (details && (typeof details.stdout === 'string' || typeof details.stderr === 'string')) {
    bash = {
      stdout: cut(str(details.stdout) ?? '', options.maxTextChars).text,
      stderr: cut(str(details.stderr) ?? '', options.maxTextChars).text,
      interrupted: details.interrupted === true,
    };
  }
  let edit: FileEdit | null = null;
  const hunks = details ? hunksOf(details.structuredPatch) : null;
  if (details && hunks !== null) edit = { filePath: str(details.filePath) ?? '', hunks };
  return {
    toolUseId: str(block.tool_use_id) ?? '',
    isError: block.is_error === true,
    text: kept.text,
    omittedChars: kept.omittedChars,
    images,
    bash,
    edit,
    agentId: details ? str(details.agentId) : null,
    persistedOutput: persistedOutputOf(text, details),
    line,
  };
}

function contentBlocks(content: unknown, toolUseResult: unknown, line: number, options: NormaliseOptions): ContentBlock[] {
  if (typeof content === 'string') {
    const kept = cut(content, options.maxTextChars);
    return [{ kind: 'text', text: kept.text, omittedChars: kept.omittedChars }];
  }
  if (!Array.isArray(content)) return [];
  const blocks: ContentBlock[] = [];
  for (const block of content) {
    if (!isObject(block)) {
      blocks.push({ kind: 'unknown-block', type: typeof block, raw: compactJson(block, 2000) });
      continue;
    }
    switch (block.type) {
      case 'text': {
        const kept = cut(str(block.text) ?? '', options.maxTextChars);
        blocks.push({ kind: 'text', text: kept.text, omittedChars: kept.omittedChars });
        break;
      }
      case 'thinking':
        blocks.push({ kind: 'thinking', text: cut(str(block.thinking) ?? '', options.maxTextChars).text, redacted: false });
        break;
      case 'redacted_thinking':
        blocks.push({ kind: 'thinking', text: '', redacted: true });
        break;
      case 'tool_use':
        blocks.push({ kind: 'tool-call', call: toolCallOf(block, options) });
        break;
      case 'tool_result':
        blocks.push({ kind: 'tool-result', result: toolResultOf(block, toolUseResult, line, options) });
        break;
      case 'image':
        blocks.push({ kind: 'image', image: imageOf(block) });
        break;
      case 'document': {
        const source = isObject(block.source) ? block.source : {};
        const data = str(source.data);
        blocks.push({ kind: 'document', mediaType: str(source.media_type), bytes: data !== null ? base64Bytes(data) : null });
        break;
      }
      default:
        blocks.push({ kind: 'unknown-block', type: str(block.type) ?? '', raw: compactJson(block, options.maxTextChars) });
    }
  }
  return blocks;
}

function systemText(record: JsonObject): string {
  const content = str(record.content);
  switch (record.subtype) {
    case 'turn_duration': {
      const ms = num(record.durationMs);
      return ms === null ? 'Turn finished' : `Turn took ${(ms / 1000).toFixed(1)} s`;
    }
    case 'api_error':
      return `API error${num(record.retryAttempt) !== null ? ` (retry ${record.retryAttempt})` : ''}: ${compactJson(record.error ?? record.cause ?? content, 2000)}`;
    case 'memory_saved':
      return `Memory saved: ${Array.isArray(record.writtenPaths) ? record.writtenPaths.join(', ') : ''}`;
    default: {
      if (content !== null) return content;
      const { type: _type, subtype: _subtype, uuid: _uuid, parentUuid: _parent, ...rest } = record;
      return compactJson(rest, 2000);
    }
  }
}

function attachmentText(attachment: JsonObject): string {
  const pick = (...keys: string[]) => keys.map((key) => str(attachment[key])).find((value) => value !== null && value !== '') ?? null;
  switch (attachment.type) {
    case 'queued_command':
      return pick('prompt') ?? '';
    case 'prompt_snapshot':
      return `Prompt snapshot: the system prompt${Array.isArray(attachment.tools) ? ` and ${attachment.tools.length} tools` : ''} as sent`;
    case 'relevant_memories':
      return Array.isArray(attachment.memories)
        ? attachment.memories.map((memory) => (isObject(memory) ? (str(memory.path) ?? '') : '')).join(', ')
        : '';
    default:
      return pick('displayPath', 'filename', 'path', 'planFilePath', 'newDate', 'content') ?? compactJson(attachment, 1000);
  }
}

/** A tool hook's result, or null for any other attachment. */
function hookOf(attachment: JsonObject, line: number): HookRun | null {
  const outcome = str(attachment.type);
  const toolUseId = str(attachment.toolUseID);
  if (outcome === null || !outcome.startsWith('hook_') || toolUseId === null) return null;
  const said = [str(attachment.content), str(attachment.stdout), str(attachment.stderr)].find(
    (text) => text !== null && text.trim() !== '',
  );
  return {
    event: str(attachment.hookEvent),
    name: str(attachment.hookName),
    outcome,
    command: str(attachment.command),
    exitCode: num(attachment.exitCode),
    text: said?.trim() ?? '',
    toolUseId,
    line,
  };
}

/** A short line for a request record (Claude Code 2.1.3xx bookkeeping of what it sent to the API). */
function requestRecordText(type: string, record: JsonObject): string | null {
  const params = isObject(record.params) ? record.params : {};
  switch (type) {
    case 'api-request':
      return `API request${str(params.model) ? ` to ${str(params.model)}` : ''}${str(record.querySource) ? ` (${str(record.querySource)})` : ''}`;
    case 'api-request-blob':
      return `API request message ${str(record.hash)?.slice(0, 12) ?? ''}`.trim();
    case 'api-request-shape':
      return `API request shape ${str(record.shapeHash)?.slice(0, 12) ?? ''}`.trim();
    case 'cost-state':
      return num(record.totalCostUSD) !== null ? `Cost so far: $${(num(record.totalCostUSD) as number).toFixed(4)}` : null;
    default:
      return null;
  }
}

function metadataText(type: string, record: JsonObject): string {
  const requestRecord = requestRecordText(type, record);
  if (requestRecord !== null) return requestRecord;
  if (type === 'pr-link') {
    const url = str(record.prUrl);
    if (url !== null) return `Pull request ${num(record.prNumber) !== null ? `#${record.prNumber} ` : ''}${url}`;
  }
  const field = {
    'custom-title': 'customTitle',
    'ai-title': 'aiTitle',
    'last-prompt': 'lastPrompt',
    'permission-mode': 'permissionMode',
    mode: 'mode',
    tag: 'tag',
    'agent-name': 'agentName',
    'task-summary': 'summary',
  }[type];
  const value = field ? str(record[field]) : null;
  if (value !== null) return value;
  if (type === 'queue-operation') return `${str(record.operation) ?? ''} ${str(record.content) ?? ''}`.trim();
  const { type: _type, sessionId: _sessionId, ...rest } = record;
  return compactJson(rest, 1000);
}

/** Which response an assistant line belongs to and what it cost, as the line's entry tells them. */
export interface ResponseFacts {
  readonly model: string | null;
  readonly messageId: string | null;
  readonly usage: TokenUsage | null;
  readonly isApiError: boolean;
}

/**
 * An assistant record's response facts, read as its entry's body reads them: for what needs only these (the usage
 * chart) without normalising the line's content.
 */
export function responseFacts(record: JsonObject): ResponseFacts {
  const message = isObject(record.message) ? record.message : null;
  return {
    model: str(message?.model),
    messageId: str(message?.id),
    usage: usageOf(message?.usage),
    isApiError: record.isApiErrorMessage === true,
  };
}

function bodyOf(record: JsonObject, indexed: IndexedLine, rawText: string, options: NormaliseOptions): EntryBody {
  const type = str(record.type) ?? '';
  const message = isObject(record.message) ? record.message : null;
  switch (type) {
    case 'user': {
      if (record.isCompactSummary === true) {
        const blocks = contentBlocks(message?.content, null, indexed.line, { maxTextChars: Infinity });
        const text = blocks.map((block) => (block.kind === 'text' ? block.text : '')).join('\n');
        const kept = cut(text, options.maxTextChars);
        return { kind: 'compact-summary', text: kept.text, omittedChars: kept.omittedChars };
      }
      return { kind: 'user', blocks: contentBlocks(message?.content, record.toolUseResult, indexed.line, options) };
    }
    case 'assistant':
      return {
        kind: 'assistant',
        ...responseFacts(record),
        blocks: contentBlocks(message?.content, null, indexed.line, options),
        stopReason: str(message?.stop_reason),
      };
    case 'system': {
      if (record.subtype === 'compact_boundary') {
        const meta = isObject(record.compactMetadata) ? record.compactMetadata : {};
        return {
          kind: 'compact-boundary',
          trigger: str(meta.trigger),
          preTokens: num(meta.preTokens),
          postTokens: num(meta.postTokens),
          logicalParentUuid: str(record.logicalParentUuid),
        };
      }
      return {
        kind: 'system',
        subtype: str(record.subtype),
        level: str(record.level),
        text: cut(systemText(record), options.maxTextChars).text,
      };
    }
    case 'attachment': {
      const attachment = isObject(record.attachment) ? record.attachment : {};
      const hook = hookOf(attachment, indexed.line);
      const text = hook ? `${hook.name ?? hook.event ?? 'Hook'}: ${hook.text}` : attachmentText(attachment);
      return { kind: 'attachment', attachmentType: str(attachment.type), text: cut(text, options.maxTextChars).text, hook };
    }
    case 'progress': {
      const data = isObject(record.data) ? record.data : {};
      return { kind: 'progress', dataType: str(data.type), agentId: str(data.agentId), text: compactJson(data, 1000) };
    }
    case 'summary':
      return { kind: 'summary', summary: str(record.summary) ?? '', leafUuid: str(record.leafUuid) };
    default: {
      if (METADATA_TYPES.has(type)) return { kind: 'metadata', text: cut(metadataText(type, record), options.maxTextChars).text };
      const kept = cut(rawText, options.maxTextChars);
      return { kind: 'unknown', raw: kept.text, omittedChars: kept.omittedChars };
    }
  }
}

/** The entry for one line, from its raw text (null when the line could not be read at all). */
export function normaliseLine(indexed: IndexedLine, rawText: string | null, options: NormaliseOptions): TranscriptEntry {
  const base = {
    line: indexed.line,
    offset: indexed.offset,
    bytes: indexed.length,
    type: indexed.type,
    uuid: indexed.uuid,
    parentUuid: indexed.parentUuid,
    timestamp: indexed.timestamp,
    isSidechain: indexed.isSidechain,
    isMeta: indexed.isMeta,
    agentId: indexed.agentId,
    danglingParentUuid: null,
  };
  if (indexed.unreadable !== null || rawText === null)
    return { ...base, body: { kind: 'unreadable', reason: indexed.unreadable ?? 'too-long' } };
  let record: unknown;
  try {
    record = JSON.parse(rawText);
  } catch {
    return { ...base, body: { kind: 'unreadable', reason: 'invalid-json' } };
  }
  if (!isObject(record)) return { ...base, body: { kind: 'unreadable', reason: 'invalid-json' } };
  return { ...base, body: bodyOf(record, indexed, rawText, options) };
}

/** A copy of a tool call with its result attached; the recorded patch of an edit replaces the diff computed from the input. */
export function withResult(call: ToolCall, result: ToolResult): ToolCall {
  const edit =
    result.edit && result.edit.hunks.length > 0
      ? { filePath: result.edit.filePath || (call.edit?.filePath ?? ''), hunks: result.edit.hunks }
      : call.edit;
  return { ...call, result, edit };
}
