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

/** The string at a path of scanned fields, or null when a step is missing or the value is not a string. */
function stringAt(top: Fields, path: readonly string[]): string | null {
  let value: unknown = top;
  for (const key of path) value = objectOf(value)?.[key];
  return str(value);
}

/** Where a string field of `IndexedLine` lies in a line; `onlyForType` keeps it for lines of that type alone. */
interface FieldPlace {
  readonly path: readonly string[];
  readonly onlyForType?: string;
}

type StringField =
  | 'uuid'
  | 'parentUuid'
  | 'logicalParentUuid'
  | 'timestamp'
  | 'subtype'
  | 'agentId'
  | 'messageId'
  | 'resultAgentId'
  | 'progressType'
  | 'progressAgentId'
  | 'parentToolUseId'
  | 'attachmentType'
  | 'attachmentToolUseId';

/**
 * The string fields of `IndexedLine` and where each lies in a line. The `attachment` and `data` objects are read for
 * their own line types only: another type's object of that name means something else.
 */
const STRING_FIELDS: readonly (readonly [StringField, FieldPlace])[] = [
  ['uuid', { path: ['uuid'] }],
  ['parentUuid', { path: ['parentUuid'] }],
  ['logicalParentUuid', { path: ['logicalParentUuid'] }],
  ['timestamp', { path: ['timestamp'] }],
  ['subtype', { path: ['subtype'] }],
  ['agentId', { path: ['agentId'] }],
  ['messageId', { path: ['message', 'id'] }],
  ['resultAgentId', { path: ['toolUseResult', 'agentId'] }],
  ['progressType', { path: ['data', 'type'], onlyForType: 'progress' }],
  ['progressAgentId', { path: ['data', 'agentId'], onlyForType: 'progress' }],
  ['parentToolUseId', { path: ['parentToolUseID'] }],
  ['attachmentType', { path: ['attachment', 'type'], onlyForType: 'attachment' }],
  ['attachmentToolUseId', { path: ['attachment', 'toolUseID'], onlyForType: 'attachment' }],
];

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
  // Filled in on the shape every index line has (an unreadable one's), so all lines share one object layout.
  const scanned: { -readonly [K in keyof IndexedLine]: IndexedLine[K] } = unreadableLine(line, offset, bytes.length, 'invalid-json');
  scanned.unreadable = null;
  scanned.type = type;
  for (const [field, { path, onlyForType }] of STRING_FIELDS) {
    if (onlyForType === undefined || onlyForType === type) scanned[field] = stringAt(top, path);
  }
  scanned.isSidechain = top.isSidechain === true;
  scanned.isMeta = top.isMeta === true;
  scanned.isCompactSummary = top.isCompactSummary === true;
  scanned.toolUses = toolUses;
  scanned.toolResultIds = toolResultIds;
  scanned.hasOwnContent = typeof content === 'string' || blocks.some((b) => b.type !== 'tool_result');
  return scanned;
}
