/**
 * What Claude Code puts in front of the model from a memory folder, emulated exactly
 * (claude-code-state.md §6.1, §6.4, §6.5; Claude Code's memdir.ts, memoryAge.ts, memoryScan.ts, attachments.ts).
 */
import { INDEX_FILE_NAME } from './indexFileName';
import { formatFileSize, utf8ByteLength } from './textMetrics';

export const MAX_ENTRYPOINT_LINES = 200;
/** Compared with the JS string length (UTF-16 units) despite the name, exactly as Claude Code does. */
export const MAX_ENTRYPOINT_BYTES = 25_000;
export const MAX_MEMORY_FILES = 200;
export const MAX_RECALL_LINES = 200;
export const MAX_RECALL_BYTES = 4096;
const DAY_MS = 86_400_000;
const FILE_READ_TOOL_NAME = 'Read';

export interface EntrypointTruncation {
  /** Exactly the text the model is given, warning line included when something was cut. */
  readonly content: string;
  readonly lineCount: number;
  /** Characters of the trimmed text (Claude Code's `byteCount`). */
  readonly charCount: number;
  readonly wasLineTruncated: boolean;
  readonly wasByteTruncated: boolean;
}

/** What loads of the trimmed text: its first 200 lines, cut at the last newline before 25,000 characters. */
function loadedPart(trimmed: string, lines: readonly string[], wasLineTruncated: boolean): string {
  let truncated = wasLineTruncated ? lines.slice(0, MAX_ENTRYPOINT_LINES).join('\n') : trimmed;
  if (truncated.length > MAX_ENTRYPOINT_BYTES) {
    const cutAt = truncated.lastIndexOf('\n', MAX_ENTRYPOINT_BYTES);
    truncated = truncated.slice(0, cutAt > 0 ? cutAt : MAX_ENTRYPOINT_BYTES);
  }
  return truncated;
}

/** Where loading stops in an index as written, for drawing the cut in an editor. */
export interface EntrypointCut {
  /** Offset in the raw text: everything from here on never reaches the model. */
  readonly offset: number;
  /** The 1-based line of the raw text the cut falls in (the first line not loaded whole). */
  readonly line: number;
  readonly byLines: boolean;
  readonly byChars: boolean;
}

/** Where Claude Code stops loading this index, or null when it loads whole (leading whitespace is trimmed first). */
export function entrypointCut(raw: string): EntrypointCut | null {
  const trimmed = raw.trim();
  const lines = trimmed.split('\n');
  const byLines = lines.length > MAX_ENTRYPOINT_LINES;
  const byChars = trimmed.length > MAX_ENTRYPOINT_BYTES;
  if (!byLines && !byChars) return null;
  const offset = raw.length - raw.trimStart().length + loadedPart(trimmed, lines, byLines).length;
  let line = 1;
  for (let i = raw.indexOf('\n'); i !== -1 && i < offset; i = raw.indexOf('\n', i + 1)) line++;
  return { offset, line: raw[offset] === '\n' ? line + 1 : line, byLines, byChars };
}

/** Claude Code's `truncateEntrypointContent`: trim, first 200 lines, cut at the last newline before 25,000, warn. */
export function truncateEntrypoint(raw: string): EntrypointTruncation {
  const trimmed = raw.trim();
  const contentLines = trimmed.split('\n');
  const lineCount = contentLines.length;
  const charCount = trimmed.length;
  const wasLineTruncated = lineCount > MAX_ENTRYPOINT_LINES;
  // The original size decides the warning: long lines are what the byte cap exists for.
  const wasByteTruncated = charCount > MAX_ENTRYPOINT_BYTES;
  if (!wasLineTruncated && !wasByteTruncated) return { content: trimmed, lineCount, charCount, wasLineTruncated, wasByteTruncated };
  const truncated = loadedPart(trimmed, contentLines, wasLineTruncated);
  const reason =
    wasByteTruncated && !wasLineTruncated
      ? `${formatFileSize(charCount)} (limit: ${formatFileSize(MAX_ENTRYPOINT_BYTES)}) — index entries are too long`
      : wasLineTruncated && !wasByteTruncated
        ? `${lineCount} lines (limit: ${MAX_ENTRYPOINT_LINES})`
        : `${lineCount} lines and ${formatFileSize(charCount)}`;
  return {
    content: `${truncated}\n\n> WARNING: ${INDEX_FILE_NAME} is ${reason}. Only part of it was loaded. Keep index entries to one line under ~200 chars; move detail into topic files.`,
    lineCount,
    charCount,
    wasLineTruncated,
    wasByteTruncated,
  };
}

/** Whole days since the file last changed; a clock running behind the file counts as today. */
export function memoryAgeDays(mtimeMs: number, now: number): number {
  return Math.max(0, Math.floor((now - mtimeMs) / DAY_MS));
}

/** Claude Code's `memoryAge`: 'today', 'yesterday' or 'N days ago'. */
export function memoryAge(mtimeMs: number, now: number): string {
  const days = memoryAgeDays(mtimeMs, now);
  if (days === 0) return 'today';
  if (days === 1) return 'yesterday';
  return `${days} days ago`;
}

/** Claude Code's `memoryFreshnessText`: empty up to a day old, else the staleness caveat the model is given. */
export function memoryFreshnessText(mtimeMs: number, now: number): string {
  const days = memoryAgeDays(mtimeMs, now);
  if (days <= 1) return '';
  return `This memory is ${days} days old. Memories are point-in-time observations, not live state — claims about code behavior or file:line citations may be outdated. Verify against current code before asserting as fact.`;
}

/** The header of a recalled memory (Claude Code's `memoryHeader`). */
export function recalledMemoryHeader(path: string, mtimeMs: number, now: number): string {
  const staleness = memoryFreshnessText(mtimeMs, now);
  return staleness ? `${staleness}\n\nMemory: ${path}:` : `Memory (saved ${memoryAge(mtimeMs, now)}): ${path}:`;
}

export interface RecallCut {
  /** What is read of the file when it is recalled, before the truncation note. */
  readonly content: string;
  readonly lineCount: number;
  readonly totalLines: number;
  readonly truncated: boolean;
  readonly reason: 'lines' | 'bytes' | null;
}

/**
 * Claude Code's `readFileInRange(path, 0, 200, 4096, …, { truncateOnByteLimit: true })`: strip a BOM, split at
 * '\n' dropping a trailing '\r', keep whole lines while they fit in 4,096 UTF-8 bytes, at most 200 of them.
 */
export function recallCut(raw: string): RecallCut {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const selected: string[] = [];
  let selectedBytes = 0;
  let truncatedByBytes = false;
  let lineIndex = 0;
  let start = 0;
  const take = (line: string) => {
    if (lineIndex >= MAX_RECALL_LINES || truncatedByBytes) return;
    const clean = line.endsWith('\r') ? line.slice(0, -1) : line;
    const next = selectedBytes + (selected.length > 0 ? 1 : 0) + utf8ByteLength(clean);
    if (next > MAX_RECALL_BYTES) {
      truncatedByBytes = true;
      return;
    }
    selectedBytes = next;
    selected.push(clean);
  };
  for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
    take(text.slice(start, newline));
    lineIndex++;
    start = newline + 1;
  }
  take(text.slice(start));
  lineIndex++;
  const truncated = lineIndex > MAX_RECALL_LINES || truncatedByBytes;
  return {
    content: selected.join('\n'),
    lineCount: selected.length,
    totalLines: lineIndex,
    truncated,
    reason: truncatedByBytes ? 'bytes' : truncated ? 'lines' : null,
  };
}

/** The whole system reminder the model gets when this file is recalled for a prompt. */
export function recalledMemoryText(path: string, mtimeMs: number, raw: string, now: number): string {
  const cut = recallCut(raw);
  const note = cut.truncated
    ? `\n\n> This memory file was truncated (${cut.reason === 'bytes' ? `${MAX_RECALL_BYTES} byte limit` : `first ${MAX_RECALL_LINES} lines`}). Use the ${FILE_READ_TOOL_NAME} tool to view the complete file at: ${path}`
    : '';
  return `<system-reminder>\n${recalledMemoryHeader(path, mtimeMs, now)}\n\n${cut.content}${note}\n</system-reminder>`;
}

/** Claude Code's memory files: any `*.md`, at any depth (`memoryScan.ts`: a case-sensitive `.md`, so `NOTES.MD` is not one). */
export function isMemoryFileName(name: string): boolean {
  return name.endsWith('.md');
}

/**
 * Claude Code's topic files: any memory file but an index. The sidebar's count, the review and recall all use this
 * one rule, so they agree.
 */
export function isTopicFileName(name: string): boolean {
  return isMemoryFileName(name) && name !== INDEX_FILE_NAME;
}

export interface ScannedFile {
  readonly relativePath: string;
  readonly mtimeMs: number;
}

/**
 * The topic files Claude Code offers for recall: the 200 newest by mtime (`scanMemoryFiles`). Ties keep
 * path order, since the directory order Claude Code sees differs between machines.
 */
export function filesInScan(files: readonly ScannedFile[]): Set<string> {
  const newestFirst = [...files].sort((a, b) => b.mtimeMs - a.mtimeMs || a.relativePath.localeCompare(b.relativePath));
  return new Set(newestFirst.slice(0, MAX_MEMORY_FILES).map((f) => f.relativePath));
}

/** One line of the manifest the recall side-query chooses from (`formatMemoryManifest`). */
export function manifestLine(relativePath: string, type: string | null, mtimeMs: number, description: string | null): string {
  const tag = type ? `[${type}] ` : '';
  const time = new Date(mtimeMs).toISOString();
  return description ? `- ${tag}${relativePath} (${time}): ${description}` : `- ${tag}${relativePath} (${time})`;
}
