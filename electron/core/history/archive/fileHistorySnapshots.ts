import { isAbsolute, resolve } from 'node:path';
import { memoryPathMatcher } from '../../catalog/memoryPathMatcher';

const NEWLINE = 0x0a;
const MARKER = Buffer.from('"file-history-snapshot"', 'latin1');
/** Snapshot lines list the files one prompt touched: kilobytes. A longer line is not one and is skipped unread. */
const MAX_SNAPSHOT_LINE_BYTES = 1024 * 1024;
/** Claude Code's backup names (`8eb0ae4aa547313f@v1`, claude-code-state.md §2.11); anything else never names a path. */
export const BACKUP_FILE_NAME = /^[0-9a-f]{16}@v\d{1,9}$/;
/** Agent memory in all three scopes, as recorded on any machine. */
const AGENT_MEMORY_FOLDER = /[\\/]\.claude[\\/]agent-memory(?:-local)?[\\/]/;

/** Whether a path a transcript names lies in a memory folder: the project's, any other project's, or agent memory. */
export function memoryFolderTest(configRoot: string, memoryDir: string): (path: string) => boolean {
  const projectMemory = memoryPathMatcher(configRoot, memoryDir);
  return (path) => projectMemory(path) || AGENT_MEMORY_FOLDER.test(path);
}

function isAbsoluteAnywhere(path: string): boolean {
  return isAbsolute(path) || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}

/**
 * Collects, from the bytes of a transcript fed in order, the `file-history` backups that its `file-history-snapshot`
 * lines name for memory files (paths as typed: absolute, or relative to the session's folder). Only lines that hold the
 * marker are parsed; a line split across two feeds is joined first.
 */
export class SnapshotLineCollector {
  /** Backup file name → the memory file path it backs up. */
  readonly found = new Map<string, string>();
  private carry: Buffer[] = [];
  private carryBytes = 0;
  private skipping = false;

  constructor(
    private readonly isMemoryPath: (path: string) => boolean,
    private readonly cwd: string | null,
  ) {}

  push(bytes: Buffer): void {
    let start = 0;
    if (this.carryBytes > 0 || this.skipping) {
      const end = bytes.indexOf(NEWLINE);
      if (end < 0) {
        this.hold(bytes);
        return;
      }
      if (!this.skipping && this.carryBytes + end <= MAX_SNAPSHOT_LINE_BYTES)
        this.line(Buffer.concat([...this.carry, bytes.subarray(0, end)]));
      this.carry = [];
      this.carryBytes = 0;
      this.skipping = false;
      start = end + 1;
    }
    const lastEnd = bytes.lastIndexOf(NEWLINE);
    if (lastEnd >= start) {
      for (let at = bytes.indexOf(MARKER, start); at >= 0 && at < lastEnd; at = bytes.indexOf(MARKER, at + 1)) {
        const lineStart = Math.max(start, bytes.lastIndexOf(NEWLINE, at) + 1);
        const lineEnd = bytes.indexOf(NEWLINE, at);
        if (lineEnd - lineStart <= MAX_SNAPSHOT_LINE_BYTES) this.line(bytes.subarray(lineStart, lineEnd));
        at = lineEnd;
      }
      start = lastEnd + 1;
    }
    this.hold(bytes.subarray(start));
  }

  private hold(bytes: Buffer): void {
    if (bytes.length === 0 || this.skipping) return;
    if (this.carryBytes + bytes.length > MAX_SNAPSHOT_LINE_BYTES) {
      this.skipping = true;
      this.carry = [];
      this.carryBytes = 0;
      return;
    }
    // The caller reuses its buffer for the next read.
    this.carry.push(Buffer.from(bytes));
    this.carryBytes += bytes.length;
  }

  private line(bytes: Buffer): void {
    if (bytes.indexOf(MARKER) < 0) return;
    let record: unknown;
    try {
      record = JSON.parse(bytes.toString('utf8'));
    } catch {
      return;
    }
    if (!record || typeof record !== 'object' || (record as { type?: unknown }).type !== 'file-history-snapshot') return;
    const snapshot = (record as { snapshot?: unknown }).snapshot;
    const tracked = snapshot && typeof snapshot === 'object' ? (snapshot as { trackedFileBackups?: unknown }).trackedFileBackups : null;
    if (!tracked || typeof tracked !== 'object' || Array.isArray(tracked)) return;
    for (const [path, backup] of Object.entries(tracked as Record<string, unknown>)) {
      const name = backup && typeof backup === 'object' ? (backup as { backupFileName?: unknown }).backupFileName : null;
      if (typeof name !== 'string' || !BACKUP_FILE_NAME.test(name) || this.found.has(name)) continue;
      const absolute = isAbsoluteAnywhere(path) ? path : this.cwd !== null && isAbsolute(this.cwd) ? resolve(this.cwd, path) : null;
      if (absolute !== null && this.isMemoryPath(absolute)) this.found.set(name, path);
    }
  }
}
