import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { helperAgentType, workflowRunOf } from '../../../shared/claude/sessionFiles';
import { mapLimit } from '../async/mapLimit';
import { yieldWhenSliceIsUsed } from '../async/timeSlices';
import { errnoCode } from '../fs/errno';
import { READ_WITHOUT_WAITING } from '../fs/readSafely';
import { openFromDisk, type SourceOpener } from '../fs/randomAccessSource';
import type { SubagentLayout } from '../../../shared/transcript/transcriptOutline';
import type { SubagentFile } from '../layout/subagentFiles';
import type { TranscriptDocument } from './TranscriptDocument';
import type { AgentCall } from './agentCallLinks';
import { AGENT_TOOLS } from '../../../shared/claude/agentTools';

/** A sub-agent run of a session, linked (when possible) to the Agent/Task call that started it. */
export interface LinkedSubagent {
  readonly agentId: string;
  readonly agentType: string | null;
  readonly description: string | null;
  readonly layout: SubagentLayout;
  readonly path: string;
  /** For inline runs: the uuid of the run's first entry in the session file. */
  readonly rootUuid: string | null;
  readonly toolUseId: string | null;
  /** The line of the starting call in the session file (null for a nested agent: its call is in its parent's file). */
  readonly callLine: number | null;
  readonly firstTimestamp: string | null;
  /** The sub-agent whose call started this one, for nested agents. */
  readonly parentAgentId: string | null;
  /** 1 for an agent of the session itself, 2 for an agent's agent, … */
  readonly depth: number;
  /** The workflow run it belongs to (`subagents/workflows/<runId>/`), or null. */
  readonly workflowRunId: string | null;
}

/** The first line of a sub-agent file holds its prompt; reading further than this for it is not worth it. */
const FIRST_LINE_LIMIT = 4 * 1024 * 1024;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The text a user line carries (a string content or its first text block). */
function promptOf(record: JsonObject | undefined): string | null {
  const message = isObject(record?.message) ? record.message : null;
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const first = content.find((block) => isObject(block) && block.type === 'text');
    return isObject(first) ? text(first.text) : null;
  }
  return null;
}

/** Most first lines (a prompt) end within this; a longer one is read again in growing steps. */
const FIRST_READ_BYTES = 8 * 1024;
/** Archived first records (their files gone from disk) are read through the archive this many at a time. */
const ARCHIVED_READS_IN_FLIGHT = 16;
/** What `firstRecordIn` answers when the bytes read end before the first line does. */
const READ_FURTHER = Symbol('read further');
/** What `readFirstRecordFromDisk` answers for a file that is not on disk (the archive may hold it). */
const NOT_ON_DISK = Symbol('not on disk');

/** The first record in the first `bytes` of a file of `size` bytes, or READ_FURTHER when its line goes on. */
function firstRecordIn(bytes: Buffer, size: number, asked: number): JsonObject | undefined | typeof READ_FURTHER {
  const end = bytes.indexOf(0x0a);
  if (end < 0 && bytes.length < size && asked < FIRST_LINE_LIMIT) return READ_FURTHER;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8', 0, end < 0 ? bytes.length : end));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The first record of a file on disk, with blocking calls: a session can have hundreds of sub-agent files (1,324 in
 * the bench's largest), and through the thread pool each file's open, stat, read and close cost ~4 times as long
 * (~100 against ~25 ms for all of them). The caller yields between files. Only the bytes read are looked at, so the
 * buffers are not zeroed.
 */
function readFirstRecordFromDisk(path: string): JsonObject | undefined | typeof NOT_ON_DISK {
  let fd: number;
  try {
    fd = openSync(path, READ_WITHOUT_WAITING);
  } catch (error) {
    return errnoCode(error) === 'ENOENT' ? NOT_ON_DISK : undefined;
  }
  try {
    const size = fstatSync(fd).size;
    for (let asked = FIRST_READ_BYTES; ; asked *= 4) {
      const buffer = Buffer.allocUnsafe(Math.min(asked, FIRST_LINE_LIMIT, size));
      const record = firstRecordIn(buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)), size, asked);
      if (record !== READ_FURTHER) return record;
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The first record of a file through `opener` (the archived copy of a file Claude Code deleted). */
async function readFirstRecord(path: string, opener: SourceOpener): Promise<JsonObject | undefined> {
  try {
    const handle = await opener(path);
    try {
      const size = (await handle.stat()).size;
      for (let asked = FIRST_READ_BYTES; ; asked *= 4) {
        const buffer = Buffer.allocUnsafe(Math.min(asked, FIRST_LINE_LIMIT, size));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        const record = firstRecordIn(buffer.subarray(0, bytesRead), size, asked);
        if (record !== READ_FURTHER) return record;
      }
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/** The first record of each file: from disk where it is, else through `opener`. */
async function readFirstRecords(files: readonly SubagentFile[], opener: SourceOpener): Promise<(JsonObject | undefined)[]> {
  const records: (JsonObject | undefined)[] = [];
  const elsewhere: number[] = [];
  for (const file of files) {
    await yieldWhenSliceIsUsed();
    const record = readFirstRecordFromDisk(file.path);
    if (record === NOT_ON_DISK) elsewhere.push(records.length);
    records.push(record === NOT_ON_DISK ? undefined : record);
  }
  const archived = await mapLimit(elsewhere, ARCHIVED_READS_IN_FLIGHT, (index) => readFirstRecord(files[index].path, opener));
  elsewhere.forEach((index, k) => (records[index] = archived[k]));
  return records;
}

/** What a call's input says of the run it starts. */
interface AgentCallInput {
  readonly agentType: string | null;
  readonly description: string | null;
  readonly prompt: string | null;
}

/**
 * The input of every Agent/Task call, read from the session file: one read and one parse per call (1,324 over 500 MB
 * in the bench's largest), so only asked when a run's meta.json does not already tell its type, description and call.
 */
async function agentCallInputs(main: TranscriptDocument, calls: readonly AgentCall[]): Promise<Map<string, AgentCallInput>> {
  const records = await main.readRecords(new Set(calls.map((call) => call.line)));
  const inputs = new Map<string, AgentCallInput>();
  for (const record of records.values()) {
    const message = record.message;
    const content = isObject(message) && Array.isArray(message.content) ? message.content : [];
    for (const block of content) {
      if (!isObject(block) || block.type !== 'tool_use' || !AGENT_TOOLS.has(String(block.name))) continue;
      const input = isObject(block.input) ? block.input : {};
      inputs.set(String(block.id), {
        agentType: text(input.subagent_type),
        description: text(input.description),
        prompt: text(input.prompt),
      });
    }
  }
  return inputs;
}

/**
 * Links each sub-agent run to the call that started it, trying in turn: the `toolUseId` in its meta.json; a tool
 * result that names its `agentId` (2.1.x); a legacy `agent_progress` line that names both; and, for runs whose call
 * left no trace of the id (Claude Code 1.0 inline runs, a rejected call), the call whose prompt is the run's first
 * message. Inline runs are the sidechain roots of the session file's own tree.
 */
export async function linkSubagents(
  main: TranscriptDocument,
  files: readonly SubagentFile[],
  opener: SourceOpener = openFromDisk,
): Promise<LinkedSubagent[]> {
  const tree = main.tree();
  const { calls, byResult, byProgress } = main.agentCallLinks();
  const inlineRoots = tree.roots().filter((root) => tree.nodes[root].isSidechain);
  // The session file's reads are asked first: the thread pool serves them while the sub-agents' first records are read.
  const [inlineRecords, firstRecords] = await Promise.all([
    main.readRecords(inlineRoots.map((root) => tree.nodes[root].line)),
    readFirstRecords(files, opener),
  ]);
  const callById = new Map(calls.map((call) => [call.id, call]));
  interface Candidate {
    readonly agentId: string;
    readonly layout: SubagentLayout;
    readonly path: string;
    readonly rootUuid: string | null;
    readonly meta: SubagentFile['meta'];
    readonly first: JsonObject | undefined;
    toolUseId: string | null;
  }
  const candidates: Candidate[] = [];
  for (const root of inlineRoots) {
    const line = tree.nodes[root];
    candidates.push({
      agentId: line.agentId ?? `inline-${line.uuid}`,
      layout: 'inline',
      path: main.path,
      rootUuid: line.uuid,
      meta: null,
      first: inlineRecords.get(line.line),
      toolUseId: null,
    });
  }
  files.forEach((file, index) => {
    candidates.push({
      agentId: file.agentId,
      layout: file.layout,
      path: file.path,
      rootUuid: null,
      meta: file.meta,
      first: firstRecords[index],
      toolUseId: null,
    });
  });

  const claimed = new Set<string>();
  for (const candidate of candidates) {
    const id = candidate.meta?.toolUseId ?? byResult.get(candidate.agentId) ?? byProgress.get(candidate.agentId) ?? null;
    if (id !== null && callById.has(id) && !claimed.has(id)) {
      candidate.toolUseId = id;
      claimed.add(id);
    } else if (id !== null && candidate.meta?.parentAgentId) {
      // A nested agent's call is in its parent agent's file, not in the session's.
      candidate.toolUseId = id;
    }
  }
  const unclaimed = calls.some((call) => !claimed.has(call.id));
  const needsInput = (candidate: Candidate): boolean =>
    candidate.toolUseId === null
      ? unclaimed && !!promptOf(candidate.first)?.trim()
      : callById.has(candidate.toolUseId) && (candidate.meta?.agentType == null || candidate.meta.description == null);
  const inputs = candidates.some(needsInput) ? await agentCallInputs(main, calls) : new Map<string, AgentCallInput>();
  for (const candidate of candidates) {
    if (candidate.toolUseId !== null) continue;
    const prompt = promptOf(candidate.first)?.trim();
    if (!prompt) continue;
    const call = calls.find((c) => !claimed.has(c.id) && inputs.get(c.id)?.prompt?.trim() === prompt);
    if (call) {
      candidate.toolUseId = call.id;
      claimed.add(call.id);
    }
  }

  return candidates.map((candidate) => {
    const call = candidate.toolUseId !== null ? callById.get(candidate.toolUseId) : undefined;
    const input = call ? inputs.get(call.id) : undefined;
    const parentAgentId = candidate.meta?.parentAgentId ?? null;
    return {
      agentId: candidate.agentId,
      agentType: candidate.meta?.agentType ?? input?.agentType ?? helperAgentType(candidate.agentId),
      description: candidate.meta?.description ?? input?.description ?? null,
      layout: candidate.layout,
      path: candidate.path,
      rootUuid: candidate.rootUuid,
      toolUseId: candidate.toolUseId,
      callLine: call?.line ?? null,
      firstTimestamp: text(candidate.first?.timestamp),
      parentAgentId,
      depth: candidate.meta?.spawnDepth ?? (parentAgentId !== null ? 2 : 1),
      workflowRunId: candidate.layout === 'subagents-folder' ? workflowRunOf(candidate.path) : null,
    };
  });
}
