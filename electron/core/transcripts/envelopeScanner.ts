import { isUtf8 } from 'node:buffer';
import { NO_IDS, NO_TOOL_USES, unreadableLine, type IndexedLine, type IndexedToolUse } from '../../../shared/transcript/indexedLine';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/**
 * The rest of a string with escapes in it, in bounded steps: the regex engine walks the characters natively, and
 * the repetition bound keeps its backtracking stack small on strings of many megabytes.
 */
const STRING_BODY_STEP = /[^"\\]*(?:\\[\s\S][^"\\]*){0,1024}/y;

/**
 * Index just past the string that opens at `at`, or -1 when it never closes. Most strings end at the first quote
 * (found by native `indexOf`); strings with escaped quotes are finished by the regex engine.
 */
function stringEnd(text: string, at: number): number {
  const quote = text.indexOf('"', at + 1);
  if (quote < 0) return -1;
  if (text.charCodeAt(quote - 1) !== BACKSLASH) return quote + 1;
  let from = at + 1;
  for (;;) {
    STRING_BODY_STEP.lastIndex = from;
    STRING_BODY_STEP.exec(text);
    const end = STRING_BODY_STEP.lastIndex;
    if (end >= text.length) return -1;
    if (text.charCodeAt(end) === QUOTE) return end + 1;
    // No progress: a lone backslash at the very end, so the string never closes.
    if (end === from) return -1;
    from = end;
  }
}

const LITERAL = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/;

/** Index just past the JSON value that starts at `at`, or -1 when it is malformed. */
function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return stringEnd(text, at);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let i = at; i < text.length; i++) {
      const char = text.charCodeAt(i);
      if (char === QUOTE) {
        const end = stringEnd(text, i);
        if (end < 0) return -1;
        i = end - 1;
      } else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
        depth++;
      } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  let i = at;
  while (i < text.length) {
    const char = text.charCodeAt(i);
    if (char === COMMA || char === CLOSE_BRACE || char === CLOSE_BRACKET || isSpace(char)) break;
    i++;
  }
  return i > at && LITERAL.test(text.slice(at, i)) ? i : -1;
}

/**
 * The line is scanned as a latin1 string (one character per byte, so indices are byte offsets and quotes and
 * backslashes are found the same); a captured value is decoded from the bytes as UTF-8, and unescaped by JSON.parse.
 */
function decodeString(text: string, bytes: Buffer, start: number, end: number): string | null {
  const escape = text.indexOf('\\', start + 1);
  if (escape < 0 || escape >= end - 1) return bytes.toString('utf8', start + 1, end - 1);
  try {
    return JSON.parse(bytes.toString('utf8', start, end)) as string;
  } catch {
    return null;
  }
}

function isTrue(text: string, start: number, end: number): boolean {
  return end - start === 4 && text.startsWith('true', start);
}

/**
 * Visits the keys of the object at `at`. `visit` returns the end of the value when it read the value itself, or
 * undefined to have it skipped. Returns the index past the closing brace, or -1 when the object is malformed.
 */
function walkObject(text: string, at: number, visit: (key: string, valueStart: number) => number | undefined): number {
  if (text.charCodeAt(at) !== OPEN_BRACE) return -1;
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return i + 1;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return -1;
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return -1;
    // Keys are plain ASCII in every line Claude Code writes; one with escapes simply matches no wanted key.
    const key = text.slice(i + 1, keyEnd - 1);
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return -1;
    i = skipSpace(text, i + 1);
    const end = visit(key, i) ?? valueEnd(text, i);
    if (end < 0) return -1;
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === COMMA) {
      i = skipSpace(text, i + 1);
      continue;
    }
    return text.charCodeAt(i) === CLOSE_BRACE ? i + 1 : -1;
  }
}

/** Visits the elements of the array at `at`; `visit` works as in `walkObject`. */
function walkArray(text: string, at: number, visit: (valueStart: number) => number | undefined): number {
  if (text.charCodeAt(at) !== OPEN_BRACKET) return -1;
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return i + 1;
  for (;;) {
    const end = visit(i) ?? valueEnd(text, i);
    if (end < 0) return -1;
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === COMMA) {
      i = skipSpace(text, i + 1);
      continue;
    }
    return text.charCodeAt(i) === CLOSE_BRACKET ? i + 1 : -1;
  }
}

interface BlockFacts {
  type: string | null;
  id: string | null;
  name: string | null;
  toolUseId: string | null;
}

/**
 * Reads the envelope of one transcript line — uuid, parents, type, flags, tool ids — without parsing the
 * whole line: it walks the JSON structure and jumps over string contents with native `indexOf`, so a line
 * of megabytes of base64 or file text costs little more than a memchr. Malformed lines come back unreadable.
 */
export function scanEnvelope(bytes: Buffer, line: number, offset: number): IndexedLine {
  if (bytes.indexOf(0) >= 0) return unreadableLine(line, offset, bytes.length, 'binary');
  if (!isUtf8(bytes)) return unreadableLine(line, offset, bytes.length, 'invalid-utf8');
  const text = bytes.toString('latin1');
  const valueOf = (start: number, end: number): string | null =>
    text.charCodeAt(start) === QUOTE ? decodeString(text, bytes, start, end) : null;

  const top: Record<string, string | null> = {};
  const flags = { isSidechain: false, isMeta: false, isCompactSummary: false };
  let messageId: string | null = null;
  let contentIsString = false;
  const blocks: BlockFacts[] = [];
  let dataType: string | null = null;
  let dataAgentId: string | null = null;
  let resultAgentId: string | null = null;
  let attachmentType: string | null = null;
  let attachmentToolUseId: string | null = null;

  const start = skipSpace(text, 0);
  const end = walkObject(text, start, (key, at) => {
    switch (key) {
      case 'type':
      case 'uuid':
      case 'parentUuid':
      case 'logicalParentUuid':
      case 'timestamp':
      case 'subtype':
      case 'agentId':
      case 'parentToolUseID': {
        const valueEndAt = valueEnd(text, at);
        if (valueEndAt >= 0) top[key] = valueOf(at, valueEndAt);
        return valueEndAt;
      }
      case 'isSidechain':
      case 'isMeta':
      case 'isCompactSummary': {
        const valueEndAt = valueEnd(text, at);
        if (valueEndAt >= 0) flags[key] = isTrue(text, at, valueEndAt);
        return valueEndAt;
      }
      case 'message':
        if (text.charCodeAt(at) !== OPEN_BRACE) return undefined;
        return walkObject(text, at, (messageKey, valueAt) => {
          if (messageKey === 'id') {
            const valueEndAt = valueEnd(text, valueAt);
            if (valueEndAt >= 0) messageId = valueOf(valueAt, valueEndAt);
            return valueEndAt;
          }
          if (messageKey !== 'content') return undefined;
          if (text.charCodeAt(valueAt) === QUOTE) {
            contentIsString = true;
            return undefined;
          }
          if (text.charCodeAt(valueAt) !== OPEN_BRACKET) return undefined;
          return walkArray(text, valueAt, (blockAt) => {
            if (text.charCodeAt(blockAt) !== OPEN_BRACE) return undefined;
            const block: BlockFacts = { type: null, id: null, name: null, toolUseId: null };
            blocks.push(block);
            return walkObject(text, blockAt, (blockKey, blockValueAt) => {
              const field =
                blockKey === 'type'
                  ? 'type'
                  : blockKey === 'id'
                    ? 'id'
                    : blockKey === 'name'
                      ? 'name'
                      : blockKey === 'tool_use_id'
                        ? 'toolUseId'
                        : null;
              if (field === null) return undefined;
              const valueEndAt = valueEnd(text, blockValueAt);
              if (valueEndAt >= 0) block[field] = valueOf(blockValueAt, valueEndAt);
              return valueEndAt;
            });
          });
        });
      case 'attachment':
        if (text.charCodeAt(at) !== OPEN_BRACE) return undefined;
        return walkObject(text, at, (innerKey, valueAt) => {
          if (innerKey !== 'type' && innerKey !== 'toolUseID') return undefined;
          const valueEndAt = valueEnd(text, valueAt);
          if (valueEndAt < 0) return valueEndAt;
          if (innerKey === 'type') attachmentType = valueOf(valueAt, valueEndAt);
          else attachmentToolUseId = valueOf(valueAt, valueEndAt);
          return valueEndAt;
        });
      case 'data':
      case 'toolUseResult':
        if (text.charCodeAt(at) !== OPEN_BRACE) return undefined;
        return walkObject(text, at, (innerKey, valueAt) => {
          if (innerKey !== 'agentId' && !(key === 'data' && innerKey === 'type')) return undefined;
          const valueEndAt = valueEnd(text, valueAt);
          if (valueEndAt < 0) return valueEndAt;
          const value = valueOf(valueAt, valueEndAt);
          if (key === 'toolUseResult') resultAgentId = value;
          else if (innerKey === 'type') dataType = value;
          else dataAgentId = value;
          return valueEndAt;
        });
      default:
        return undefined;
    }
  });
  if (end < 0 || skipSpace(text, end) !== text.length) return unreadableLine(line, offset, bytes.length, 'invalid-json');

  const type = top.type ?? '';
  let toolUses: readonly IndexedToolUse[] = NO_TOOL_USES;
  let toolResultIds: readonly string[] = NO_IDS;
  if (type === 'assistant') {
    const uses = blocks.filter((b) => b.type === 'tool_use' && b.id !== null).map((b) => ({ id: b.id as string, name: b.name ?? '' }));
    if (uses.length > 0) toolUses = uses;
  } else if (type === 'user') {
    const ids = blocks.filter((b) => b.type === 'tool_result' && b.toolUseId !== null).map((b) => b.toolUseId as string);
    if (ids.length > 0) toolResultIds = ids;
  }
  return {
    line,
    offset,
    length: bytes.length,
    type,
    uuid: top.uuid ?? null,
    parentUuid: top.parentUuid ?? null,
    logicalParentUuid: top.logicalParentUuid ?? null,
    timestamp: top.timestamp ?? null,
    subtype: top.subtype ?? null,
    isSidechain: flags.isSidechain,
    isMeta: flags.isMeta,
    isCompactSummary: flags.isCompactSummary,
    agentId: top.agentId ?? null,
    messageId,
    toolUses,
    toolResultIds,
    hasOwnContent: contentIsString || blocks.some((b) => b.type !== 'tool_result'),
    resultAgentId,
    progressType: type === 'progress' ? dataType : null,
    progressAgentId: type === 'progress' ? dataAgentId : null,
    parentToolUseId: top.parentToolUseID ?? null,
    attachmentType: type === 'attachment' ? attachmentType : null,
    attachmentToolUseId: type === 'attachment' ? attachmentToolUseId : null,
    unreadable: null,
  };
}
