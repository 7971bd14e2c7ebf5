import type { SessionQuickInfo, TitleSource } from '../../../shared/model/session';
import type { ItemWarning } from '../../../shared/model/warnings';
import { isMeaningfulPrompt, toTitle, userContentText } from '../../../shared/claude/promptText';
import { readHeadAndTail, warning, describeFsError } from '../fs/readSafely';
import type { SourceOpener } from '../fs/randomAccessSource';
import { parseWindowLines } from './jsonlWindow';

/** Claude Code's own lite-read size for session lists. */
export const LITE_READ_BYTES = 64 * 1024;

type JsonRecord = Record<string, unknown>;

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Title fields of metadata entries, in Claude Code's order of precedence. */
const TITLE_FIELDS: readonly { type: string; field: string; source: TitleSource }[] = [
  { type: 'custom-title', field: 'customTitle', source: 'custom-title' },
  { type: 'ai-title', field: 'aiTitle', source: 'ai-title' },
  { type: 'last-prompt', field: 'lastPrompt', source: 'last-prompt' },
  { type: 'summary', field: 'summary', source: 'summary' },
];

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

function firstPrompt(records: readonly JsonRecord[]): string | null {
  for (const record of records) {
    if (record.type !== 'user' || record.isMeta === true || record.isCompactSummary === true || record.isSidechain === true) continue;
    const message = record.message as { content?: unknown } | undefined;
    const text = userContentText(message?.content);
    if (text !== null && isMeaningfulPrompt(text)) return text;
  }
  return null;
}

function pickTitle(head: readonly JsonRecord[], tail: readonly JsonRecord[]): { title: string | null; titleSource: TitleSource } {
  for (const { type, field, source } of TITLE_FIELDS) {
    const value = lastOf(tail, type, field) ?? lastOf(head, type, field);
    if (value) return { title: toTitle(value), titleSource: source };
  }
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
    read = await readHeadAndTail(file, LITE_READ_BYTES, opener);
  } catch (error) {
    return emptyInfo(file, sessionId, 0, new Date(0).toISOString(), [
      warning('unreadable', `Cannot read transcript: ${describeFsError(error)}`, file),
    ]);
  }
  const mtime = new Date(read.mtimeMs).toISOString();
  if (read.size === 0) {
    return emptyInfo(file, sessionId, 0, mtime, [warning('empty-file', 'Empty transcript (0 bytes)', file)]);
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

  const { title, titleSource } = pickTitle(head.records, tail.records);
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
  };
}

function emptyInfo(file: string, sessionId: string, bytes: number, mtime: string, warnings: ItemWarning[]): SessionQuickInfo {
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
  };
}
