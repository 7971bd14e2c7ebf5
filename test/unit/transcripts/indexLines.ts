import { scanEnvelope } from '../../../electron/core/transcripts/envelopeScanner';
import type { IndexedLine } from '../../../shared/transcript/indexedLine';

/** Index lines for records (or raw line texts), numbered from 1 as if they were a file. */
export function indexLines(records: readonly (Record<string, unknown> | string)[]): IndexedLine[] {
  let offset = 0;
  return records.map((record, i) => {
    const bytes = Buffer.from(typeof record === 'string' ? record : JSON.stringify(record));
    const line = scanEnvelope(bytes, i + 1, offset);
    offset += bytes.length + 1;
    return line;
  });
}

let clock = Date.parse('2026-05-01T10:00:00.000Z');

/** A chain entry; every call gets a later timestamp unless one is given. */
export function entry(type: string, uuid: string, parentUuid: string | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  clock += 1000;
  return { type, uuid, parentUuid, timestamp: new Date(clock).toISOString(), isSidechain: false, ...extra };
}

export function assistantChunk(
  uuid: string,
  parentUuid: string,
  messageId: string,
  block: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return entry('assistant', uuid, parentUuid, { message: { id: messageId, role: 'assistant', content: [block] }, ...extra });
}

export function toolResult(uuid: string, parentUuid: string, toolUseId: string, extra: Record<string, unknown> = {}) {
  return entry('user', uuid, parentUuid, {
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: 'ok' }] },
    ...extra,
  });
}
