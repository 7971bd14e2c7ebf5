import type { SessionQuickInfo, TitleSource } from '../../../shared/model/session';
import type { ItemWarning } from '../../../shared/model/warnings';
import { dirname, join } from 'node:path';
import { isLocalCommandCaveat, toTitle, typedPrompt } from '../../../shared/claude/promptText';
import { listDir, readHeadAndTail, readHeadAndTailSync, statOrNull, warning, describeFsError } from '../fs/readSafely';
import type { SourceOpener } from '../fs/randomAccessSource';
import { customTitlePath, readCustomTitleFile } from './customTitleFile';
import { parseWindowLines } from '../jsonl/jsonlWindow';

/** Claude Code's own lite-read size for session lists. */
export const LITE_READ_BYTES = 64 * 1024;

type JsonRecord = Record<string, unknown>;

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Title fields of metadata entries, in Claude Code's order of precedence (legacy summaries come after these). */
const TITLE_FIELDS: readonly { type: string; field: string; source: TitleSource }[] = [
  { type: 'custom-title', field: 'customTitle', source: 'custom-title' },
  { type: 'ai-title', field: 'aiTitle', source: 'ai-title' },
  { type: 'last-prompt', field: 'lastPrompt', source: 'last-prompt' },
];
/** How many of the last messages a legacy summary elsewhere may name as its leaf. */
const LEAF_CANDIDATES = 4;
const MAX_OTHER_SUMMARIES = 16;

function lastOf(records: readonly JsonRecord[], type: string, field: string): string | null {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i];
    if (record.type === type) {
      const value = str(record[field]);
      if (value) return value;
    }
  }
  return null;
}

/** The first thing a person typed (IDE context blocks and local commands aside), as the catalog counts prompts. */
function firstPrompt(records: readonly JsonRecord[]): string | null {
  let afterCaveat = false;
  for (const record of records) {
    if (record.type !== 'user' || record.isSidechain === true) continue;
    const content = (record.message as { content?: unknown } | undefined)?.content;
    const caveat = afterCaveat;
    afterCaveat = isLocalCommandCaveat(content);
    if (record.isMeta === true || record.isCompactSummary === true) continue;
    const typed = typedPrompt(content);
    if (typed !== null && !(typed.command && caveat)) return typed.text;
  }
  return null;
}

/** Uuids of the last main-conversation messages of the records. */
function lastMessageUuids(records: readonly JsonRecord[]): string[] {
  const uuids: string[] = [];
  for (let i = records.length - 1; i >= 0 && uuids.length < LEAF_CANDIDATES; i--) {
    const record = records[i];
    const uuid = str(record.uuid);
    if (uuid && (record.type === 'user' || record.type === 'assistant') && record.isSidechain !== true) uuids.unshift(uuid);
  }
  return uuids;
}

/** Legacy `summary` lines, split into the one that titles this file (its leaf is here) and those of other files. */
function legacySummaries(records: readonly JsonRecord[]): { own: string | null; others: { leafUuid: string; summary: string }[] } {
  const uuids = new Set(records.map((record) => str(record.uuid)).filter((uuid) => uuid !== null));
  let own: string | null = null;
  const others: { leafUuid: string; summary: string }[] = [];
  for (const record of records) {
    if (record.type !== 'summary') continue;
    const leafUuid = str(record.leafUuid);
    const summary = str(record.summary);
    if (!leafUuid || !summary) continue;
    if (uuids.has(leafUuid)) own = summary;
    else if (others.length < MAX_OTHER_SUMMARIES) others.push({ leafUuid, summary });
  }
  return { own, others };
}

function pickTitle(
  head: readonly JsonRecord[],
  tail: readonly JsonRecord[],
  customTitleFile: string | null,
  ownSummary: string | null,
): { title: string | null; titleSource: TitleSource } {
  if (customTitleFile) return { title: toTitle(customTitleFile), titleSource: 'custom-title' };
  for (const { type, field, source } of TITLE_FIELDS) {
    const value = lastOf(tail, type, field) ?? lastOf(head, type, field);
    if (value) return { title: toTitle(value), titleSource: source };
  }
  if (ownSummary) return { title: toTitle(ownSummary), titleSource: 'summary' };
  const prompt = firstPrompt(head);
  return prompt ? { title: toTitle(prompt), titleSource: 'first-prompt' } : { title: null, titleSource: 'none' };
}

function firstField(records: readonly JsonRecord[], field: string): string | null {
  for (const record of records) {
    const value = str(record[field]);
    if (value) return value;
  }
  return null;
}

function lastField(records: readonly JsonRecord[], field: string): string | null {
  for (let i = records.length - 1; i >= 0; i--) {
    const value = str(records[i][field]);
    if (value) return value;
  }
  return null;
}

/** Reads what a session list needs from the first and last 64 KiB of a transcript; never the whole file. */
export async function readSessionQuickInfo(file: string, sessionId: string, opener?: SourceOpener): Promise<SessionQuickInfo> {
  const warnings: ItemWarning[] = [];
  let read;
  try {
    read = opener ? await readHeadAndTail(file, LITE_READ_BYTES, opener) : readHeadAndTailSync(file, LITE_READ_BYTES);
  } catch (error) {
    return emptySessionInfo(file, sessionId, 0, new Date(0).toISOString(), [
      warning('unreadable', `Cannot read transcript: ${describeFsError(error)}`, file),
    ]);
  }
  const mtime = new Date(read.mtimeMs).toISOString();
  if (read.size === 0) {
    return emptySessionInfo(file, sessionId, 0, mtime, [warning('empty-file', 'Empty transcript (0 bytes)', file)]);
  }
  const wholeFileInHead = read.size <= LITE_READ_BYTES;
  const head = parseWindowLines(read.bytes, true, wholeFileInHead);
  const tail = wholeFileInHead ? head : parseWindowLines(read.tail, false, true);
  if (head.hasNul || tail.hasNul) {
    warnings.push(warning('binary-file', 'Not a JSONL transcript: the file holds binary data (NUL bytes)', file));
  }
  const invalidUtf8 = head.invalidUtf8 + (wholeFileInHead ? 0 : tail.invalidUtf8);
  if (invalidUtf8 > 0) warnings.push(warning('invalid-utf8', `${invalidUtf8} line(s) with invalid UTF-8 were skipped`, file));
  const invalidJson = head.invalidJson + (wholeFileInHead ? 0 : tail.invalidJson);
  if (invalidJson > 0 && !head.hasNul)
    warnings.push(warning('invalid-json-line', `${invalidJson} line(s) are not valid JSON and were skipped`, file));
  if (head.overlongLine)
    warnings.push(warning('line-too-long', `The first line is longer than ${LITE_READ_BYTES / 1024} KiB; it was skipped`, file));

  const records = wholeFileInHead ? head.records : [...head.records, ...tail.records];
  const summaries = legacySummaries(records);
  const { title, titleSource } = pickTitle(
    head.records,
    tail.records,
    readCustomTitleFile(customTitlePath(dirname(file), sessionId)),
    summaries.own,
  );
  return {
    sessionId,
    file,
    title,
    titleSource,
    firstTimestamp: firstField(head.records, 'timestamp'),
    lastTimestamp: lastField(tail.records, 'timestamp') ?? lastField(head.records, 'timestamp'),
    // A first line longer than the head (a pasted image) leaves the head without records: use the tail's cwd then.
    cwd: firstField(head.records, 'cwd') ?? firstField(tail.records, 'cwd'),
    gitBranch: lastField(tail.records, 'gitBranch') ?? lastField(head.records, 'gitBranch'),
    version: lastField(tail.records, 'version') ?? lastField(head.records, 'version'),
    bytes: read.size,
    mtime,
    warnings,
    mainTranscript: true,
    leafUuids: lastMessageUuids(wholeFileInHead ? head.records : tail.records),
    otherSessionSummaries: summaries.others,
  };
}

/**
 * A session whose `<sessionId>.jsonl` is gone while its `<sessionId>/subagents/` folder is left (Claude Code's
 * cleanup, a partial backup): dated, placed and versioned by its sub-agents' files, with no title of its own.
 */
export async function readOrphanSessionInfo(projectDir: string, sessionId: string): Promise<SessionQuickInfo> {
  const file = join(projectDir, `${sessionId}.jsonl`);
  const folder = join(projectDir, sessionId, 'subagents');
  const names = (await listDir(folder)).entries.filter((entry) => /^agent-.+\.jsonl$/.test(entry.name)).map((entry) => entry.name);
  let info = emptySessionInfo(file, sessionId, 0, new Date(0).toISOString(), []);
  let newest = 0;
  for (const name of names.sort()) {
    const agent = await readSessionQuickInfo(join(folder, name), sessionId);
    newest = Math.max(newest, (await statOrNull(join(folder, name)))?.mtimeMs ?? 0);
    info = {
      ...info,
      firstTimestamp: [info.firstTimestamp, agent.firstTimestamp].filter((t) => t !== null).sort()[0] ?? null,
      lastTimestamp:
        [info.lastTimestamp, agent.lastTimestamp]
          .filter((t) => t !== null)
          .sort()
          .at(-1) ?? null,
      cwd: info.cwd ?? agent.cwd,
      gitBranch: info.gitBranch ?? agent.gitBranch,
      version: info.version ?? agent.version,
    };
  }
  return { ...info, mtime: new Date(newest).toISOString(), mainTranscript: false };
}

/** What is known of a session file before any of its lines is read: its size and mtime. */
export function emptySessionInfo(file: string, sessionId: string, bytes: number, mtime: string, warnings: ItemWarning[]): SessionQuickInfo {
  return {
    sessionId,
    file,
    title: null,
    titleSource: 'none',
    firstTimestamp: null,
    lastTimestamp: null,
    cwd: null,
    gitBranch: null,
    version: null,
    bytes,
    mtime,
    warnings,
    mainTranscript: true,
    leafUuids: [],
    otherSessionSummaries: [],
  };
}
