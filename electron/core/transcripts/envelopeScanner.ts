import { isUtf8 } from 'node:buffer';
import { NO_IDS, NO_TOOL_USES, unreadableLine, type IndexedLine, type IndexedToolUse } from '../../../shared/transcript/indexedLine';
import { eachOf, LineFields, scanFields } from '../jsonl/jsonFieldScanner';

/** What the line index keeps of a line (see `IndexedLine`), read by the byte scanner the catalog uses too. */
const INDEX_FIELDS = new LineFields({
  type: 'value',
  uuid: 'value',
  parentUuid: 'value',
  logicalParentUuid: 'value',
  timestamp: 'value',
  subtype: 'value',
  agentId: 'value',
  parentToolUseID: 'value',
  isSidechain: 'value',
  isMeta: 'value',
  isCompactSummary: 'value',
  message: { id: 'value', content: eachOf({ type: 'value', id: 'value', name: 'value', tool_use_id: 'value' }) },
  attachment: { type: 'value', toolUseID: 'value' },
  data: { type: 'value', agentId: 'value' },
  toolUseResult: { agentId: 'value' },
});

type Fields = Record<string, unknown>;

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function objectOf(value: unknown): Fields | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : null;
}

/**
 * Reads the envelope of one transcript line — uuid, parents, type, flags, tool ids — without parsing the
 * whole line: the byte scanner walks only where those fields lie and jumps over string contents with native
 * `indexOf`, so a line of megabytes of base64 or file text costs little more than a memchr. Malformed lines
 * come back unreadable.
 */
export function scanEnvelope(bytes: Buffer, line: number, offset: number): IndexedLine {
  if (bytes.indexOf(0) >= 0) return unreadableLine(line, offset, bytes.length, 'binary');
  if (!isUtf8(bytes)) return unreadableLine(line, offset, bytes.length, 'invalid-utf8');
  const top = scanFields(bytes, INDEX_FIELDS, false);
  if (top === null) return unreadableLine(line, offset, bytes.length, 'invalid-json');
  const type = str(top.type) ?? '';
  const message = objectOf(top.message);
  const content = message?.content;
  const blocks = Array.isArray(content) ? content.map(objectOf).filter((block): block is Fields => block !== null) : [];
  let toolUses: readonly IndexedToolUse[] = NO_TOOL_USES;
  let toolResultIds: readonly string[] = NO_IDS;
  if (type === 'assistant') {
    const uses = blocks
      .filter((b) => b.type === 'tool_use' && typeof b.id === 'string')
      .map((b) => ({ id: b.id as string, name: str(b.name) ?? '' }));
    if (uses.length > 0) toolUses = uses;
  } else if (type === 'user') {
    const ids = blocks.filter((b) => b.type === 'tool_result' && typeof b.tool_use_id === 'string').map((b) => b.tool_use_id as string);
    if (ids.length > 0) toolResultIds = ids;
  }
  const attachment = type === 'attachment' ? objectOf(top.attachment) : null;
  const data = type === 'progress' ? objectOf(top.data) : null;
  return {
    line,
    offset,
    length: bytes.length,
    type,
    uuid: str(top.uuid),
    parentUuid: str(top.parentUuid),
    logicalParentUuid: str(top.logicalParentUuid),
    timestamp: str(top.timestamp),
    subtype: str(top.subtype),
    isSidechain: top.isSidechain === true,
    isMeta: top.isMeta === true,
    isCompactSummary: top.isCompactSummary === true,
    agentId: str(top.agentId),
    messageId: str(message?.id),
    toolUses,
    toolResultIds,
    hasOwnContent: typeof content === 'string' || blocks.some((b) => b.type !== 'tool_result'),
    resultAgentId: str(objectOf(top.toolUseResult)?.agentId),
    progressType: str(data?.type),
    progressAgentId: str(data?.agentId),
    parentToolUseId: str(top.parentToolUseID),
    attachmentType: str(attachment?.type),
    attachmentToolUseId: str(attachment?.toolUseID),
    unreadable: null,
  };
}
