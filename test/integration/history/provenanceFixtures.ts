/**
 * Transcripts as Claude Code writes them when a turn touches memory (claude-code-state.md §2.5–§2.11, and what
 * 2.1.328 was seen to write: a Write's `toolUseResult.content` carries the frontmatter stamp it added, an Edit's
 * result the whole file before (`originalFile`) and the patch it applied, a refused call an error string), so
 * reconstruction is tested on the real shapes. Lines are kept in memory and appended with `flush()`.
 */
import { appendFile, mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { structuredPatch } from 'diff';
import { seededUuid } from '../../fixtures/sessionLines';

export interface TranscriptOptions {
  readonly file: string;
  readonly sessionId: string;
  readonly cwd: string;
  /** Sub-agent transcripts: every line is a sidechain line carrying the parent's session id. */
  readonly agentId?: string | null;
  readonly version?: string;
}

export interface CallOptions {
  /** The bytes Claude Code reports having written (a Write's stamped content); default: the input. */
  readonly written?: string;
  /** An Edit's result carries the file before (`originalFile`) and the patch; older versions carried neither. */
  readonly original?: string | null;
  /** The tool refused: the result is an error and nothing changed. */
  readonly error?: string;
  /** `create` or `update` for a Write (default `create` when `original` is null). */
  readonly writeType?: 'create' | 'update';
}

let counter = 0;

/** Builds one transcript line by line, in the shapes Claude Code writes. */
export class TranscriptBuilder {
  private readonly lines: string[] = [];
  private parent: string | null = null;
  private prompt: string | null = null;

  constructor(readonly options: TranscriptOptions) {}

  private envelope(time: Date, uuid: string) {
    return {
      parentUuid: this.parent,
      isSidechain: this.options.agentId != null,
      ...(this.options.agentId ? { agentId: this.options.agentId } : {}),
      uuid,
      timestamp: time.toISOString(),
      userType: 'external',
      entrypoint: 'cli',
      cwd: this.options.cwd,
      sessionId: this.options.sessionId,
      version: this.options.version ?? '2.1.328',
      gitBranch: 'main',
    };
  }

  private push(value: Record<string, unknown>, uuid?: string): void {
    this.lines.push(JSON.stringify(value));
    if (uuid) this.parent = uuid;
  }

  /** A prompt a person typed: a turn starts. Returns its uuid. */
  typed(time: Date, text: string): string {
    const uuid = seededUuid(`${this.options.sessionId}:prompt:${counter++}`);
    this.push({ ...this.envelope(time, uuid), type: 'user', message: { role: 'user', content: text }, promptId: uuid }, uuid);
    this.prompt = uuid;
    return uuid;
  }

  get turn(): string | null {
    return this.prompt;
  }

  private call(time: Date, name: string, input: Record<string, unknown>): { id: string; uuid: string } {
    const id = `toolu_${seededUuid(`call:${counter++}`).replace(/-/g, '').slice(0, 24)}`;
    const uuid = seededUuid(`${this.options.sessionId}:assistant:${counter++}`);
    this.push(
      {
        ...this.envelope(time, uuid),
        type: 'assistant',
        requestId: `req_${counter++}`,
        message: {
          id: `msg_${counter++}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-opus-5-5',
          content: [{ type: 'tool_use', id, name, input }],
          stop_reason: 'tool_use',
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 5 },
        },
      },
      uuid,
    );
    return { id, uuid };
  }

  private result(time: Date, id: string, text: string, toolUseResult: unknown, isError = false): void {
    const uuid = seededUuid(`${this.options.sessionId}:result:${counter++}`);
    this.push(
      {
        ...this.envelope(time, uuid),
        type: 'user',
        message: {
          role: 'user',
          content: [{ tool_use_id: id, type: 'tool_result', content: text, ...(isError ? { is_error: true } : {}) }],
        },
        toolUseResult,
      },
      uuid,
    );
  }

  /** A Write call and its result; returns the tool_use line's uuid. */
  write(time: Date, filePath: string, content: string, options: CallOptions = {}): string {
    const { id, uuid } = this.call(time, 'Write', { file_path: filePath, content });
    const done = new Date(time.getTime() + 20);
    if (options.error) this.result(done, id, `<tool_use_error>${options.error}</tool_use_error>`, `Error: ${options.error}`, true);
    else
      this.result(done, id, `File created successfully at: ${filePath}`, {
        type: options.writeType ?? (options.original ? 'update' : 'create'),
        filePath,
        content: options.written ?? content,
        structuredPatch: [],
        originalFile: options.original ?? null,
        userModified: false,
      });
    return uuid;
  }

  /** An Edit call and its result (`original` null: an older Claude Code that recorded neither the file nor the patch). */
  edit(time: Date, filePath: string, oldString: string, newString: string, after: string | null, options: CallOptions = {}): string {
    const { id, uuid } = this.call(time, 'Edit', { file_path: filePath, old_string: oldString, new_string: newString, replace_all: false });
    const done = new Date(time.getTime() + 20);
    if (options.error) {
      this.result(done, id, `<tool_use_error>${options.error}</tool_use_error>`, `Error: ${options.error}`, true);
      return uuid;
    }
    const original = options.original ?? null;
    const detail: Record<string, unknown> = { filePath, oldString, newString, userModified: false, replaceAll: false };
    if (original !== null && after !== null) {
      detail.originalFile = original;
      detail.structuredPatch = structuredPatch('a', 'b', original, after, '', '', { context: 3 }).hunks;
    }
    this.result(done, id, `The file ${filePath} has been updated successfully.`, detail);
    return uuid;
  }

  /** A MultiEdit call (Claude Code 1.x–2.0) and its result. */
  multiEdit(time: Date, filePath: string, edits: readonly { old: string; new: string }[], options: CallOptions = {}): string {
    const { id, uuid } = this.call(time, 'MultiEdit', {
      file_path: filePath,
      edits: edits.map((e) => ({ old_string: e.old, new_string: e.new, replace_all: false })),
    });
    this.result(new Date(time.getTime() + 20), id, `Applied ${edits.length} edits to ${filePath}`, {
      filePath,
      edits: edits.map((e) => ({ old_string: e.old, new_string: e.new, replace_all: false })),
      originalFileContents: options.original ?? null,
      structuredPatch: [],
      userModified: false,
    });
    return uuid;
  }

  /** A Bash call that removes a file. */
  remove(time: Date, filePath: string): string {
    const { id, uuid } = this.call(time, 'Bash', { command: `rm ${filePath}`, description: 'Remove a duplicate memory' });
    this.result(new Date(time.getTime() + 20), id, '', { stdout: '', stderr: '', interrupted: false, isImage: false });
    return uuid;
  }

  /** What Claude Code appends after extraction (no verb) or a dream (`Improved`); returns the line's uuid. */
  saved(time: Date, writtenPaths: readonly string[], verb?: 'Improved'): string {
    const uuid = seededUuid(`${this.options.sessionId}:saved:${counter++}`);
    this.push(
      {
        ...this.envelope(time, uuid),
        type: 'system',
        subtype: 'memory_saved',
        writtenPaths,
        ...(verb ? { verb } : {}),
        level: 'info',
        isMeta: false,
      },
      uuid,
    );
    return uuid;
  }

  /** A file-history snapshot naming backups (null: the file did not exist then). */
  snapshot(
    time: Date,
    backups: Readonly<Record<string, { readonly name: string | null; readonly version: number; readonly at: Date }>>,
  ): void {
    const trackedFileBackups = Object.fromEntries(
      Object.entries(backups).map(([path, b]) => [path, { backupFileName: b.name, version: b.version, backupTime: b.at.toISOString() }]),
    );
    const messageId = this.prompt ?? seededUuid(`snap:${counter++}`);
    this.lines.push(
      JSON.stringify({
        type: 'file-history-snapshot',
        messageId,
        snapshot: { messageId, trackedFileBackups, timestamp: time.toISOString() },
        isSnapshotUpdate: true,
      }),
    );
  }

  turnEnd(time: Date): void {
    const uuid = seededUuid(`${this.options.sessionId}:turn:${counter++}`);
    this.push(
      { ...this.envelope(time, uuid), type: 'system', subtype: 'turn_duration', durationMs: 4000, messageCount: 4, isMeta: false },
      uuid,
    );
  }

  /** Appends what was built since the last flush; the file's mtime becomes `mtime` when given. */
  async flush(mtime?: Date): Promise<void> {
    await mkdir(dirname(this.options.file), { recursive: true });
    await appendFile(this.options.file, this.lines.map((line) => `${line}\n`).join(''));
    this.lines.length = 0;
    if (mtime) await utimes(this.options.file, mtime, mtime);
  }
}

/** A file-history backup as Claude Code keeps it: `<configRoot>/file-history/<sessionId>/<name>`. */
export async function writeBackup(configRoot: string, sessionId: string, name: string, bytes: string): Promise<void> {
  const path = join(configRoot, 'file-history', sessionId, name);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
}

/** Writes a memory file with an mtime. */
export async function memoryFile(path: string, text: string, mtime: Date): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  await utimes(path, mtime, mtime);
}

/** The frontmatter stamp Claude Code 2.1.3xx puts on every memory file it writes. */
export function stamped(name: string, type: string, sessionId: string, modified: Date, body: string, description = name): string {
  return `---\nname: ${name}\ndescription: ${description}\nmetadata:\n  node_type: memory\n  type: ${type}\n  originSessionId: ${sessionId}\n  modified: ${modified.toISOString()}\n---\n\n${body}`;
}
