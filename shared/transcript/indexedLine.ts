import type { UnreadableReason } from './transcriptEntry';

export interface IndexedToolUse {
  readonly id: string;
  readonly name: string;
}

/**
 * What an index keeps of one JSONL line: where it is, and the few envelope fields the conversation tree, the
 * tool pairing and the sub-agent links need. The line's content is read again, by offset, only when shown.
 */
export interface IndexedLine {
  /** 1-based line number. */
  readonly line: number;
  readonly offset: number;
  /** Bytes of the line without its newline. */
  readonly length: number;
  /** The raw `type` ('' when missing or unreadable). */
  readonly type: string;
  readonly uuid: string | null;
  readonly parentUuid: string | null;
  readonly logicalParentUuid: string | null;
  readonly timestamp: string | null;
  readonly subtype: string | null;
  readonly isSidechain: boolean;
  readonly isMeta: boolean;
  readonly isCompactSummary: boolean;
  readonly agentId: string | null;
  /** `message.id` of an assistant line: the chunks of one API response share it. */
  readonly messageId: string | null;
  /** `tool_use` blocks of an assistant line. */
  readonly toolUses: readonly IndexedToolUse[];
  /** `tool_use_id`s of the `tool_result` blocks of a user line. */
  readonly toolResultIds: readonly string[];
  /** A user line that holds more than tool results (a typed prompt, text, an image). */
  readonly hasOwnContent: boolean;
  /** `toolUseResult.agentId`: the sub-agent a tool result reports on. */
  readonly resultAgentId: string | null;
  /** Legacy `progress` lines: `data.type`, `data.agentId` and `parentToolUseID` (the Agent call they mirror). */
  readonly progressType: string | null;
  readonly progressAgentId: string | null;
  readonly parentToolUseId: string | null;
  /** `attachment.type` of an attachment line (a hook result, a prompt snapshot, re-attached context). */
  readonly attachmentType: string | null;
  /** `attachment.toolUseID` of a hook attachment: the tool call its PreToolUse/PostToolUse hook ran for. */
  readonly attachmentToolUseId: string | null;
  readonly unreadable: UnreadableReason | null;
}

export const NO_TOOL_USES: readonly IndexedToolUse[] = Object.freeze([]);
export const NO_IDS: readonly string[] = Object.freeze([]);

/** An index line for a line that could not be read as a JSON object. */
export function unreadableLine(line: number, offset: number, length: number, reason: UnreadableReason): IndexedLine {
  return {
    line,
    offset,
    length,
    type: '',
    uuid: null,
    parentUuid: null,
    logicalParentUuid: null,
    timestamp: null,
    subtype: null,
    isSidechain: false,
    isMeta: false,
    isCompactSummary: false,
    agentId: null,
    messageId: null,
    toolUses: NO_TOOL_USES,
    toolResultIds: NO_IDS,
    hasOwnContent: false,
    resultAgentId: null,
    progressType: null,
    progressAgentId: null,
    parentToolUseId: null,
    attachmentType: null,
    attachmentToolUseId: null,
    unreadable: reason,
  };
}
