import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { BlameLine, Certainty, ChangeCause } from '../../../shared/history/historyModel';
import type { MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import { createCliEngine } from '../cliEngine';
import { CliError, type CliIo } from '../cliIo';
import { bindOptionValues } from '../optionValues';
import { projectBySlug } from './history';
import { explained } from './restore';

/** One element of `ccmem blame --json`'s `lines`: a stable schema scripts rely on. */
export interface BlameLineJson {
  readonly line: number;
  readonly text: string;
  readonly version: string | null;
  readonly time: string | null;
  readonly cause: ChangeCause | null;
  readonly sessionId: string | null;
  readonly turnUuid: string | null;
  readonly certainty: Certainty;
}

function toJson(line: BlameLine): BlameLineJson {
  return {
    line: line.line,
    text: line.text,
    version: line.version,
    time: line.time,
    cause: line.cause,
    sessionId: line.sessionId,
    turnUuid: line.turnUuid,
    certainty: line.certainty,
  };
}

function lineText(line: BlameLine, width: number): string {
  const version = (line.version ?? '?').slice(0, 8).padEnd(8);
  const who = `${line.cause ?? 'unknown'}${line.sessionId ? ` ${line.sessionId.slice(0, 8)}` : ''}`.padEnd(20);
  const when = (line.time ?? '').slice(0, 10).padEnd(10);
  const sure = line.certainty === 'inferred' ? '~' : ' ';
  return `${version} ${sure}${who} ${when} ${String(line.line).padStart(width)}) ${line.text}`;
}

/**
 * `ccmem blame (--project SLUG | --agent-dir DIR) --file PATH [--json]`: each line of a memory file with the
 * version that brought it in and who made that version (history is recorded and reconstructed first).
 */
export async function runBlame(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: bindOptionValues(argv, ['--project', '--agent-dir', '--file']),
    options: {
      project: { type: 'string' },
      'agent-dir': { type: 'string' },
      file: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.file || (values.project === undefined) === (values['agent-dir'] === undefined))
    throw new CliError('blame needs --file PATH and one of --project SLUG or --agent-dir DIR', 2);
  const engine = await createCliEngine(io, { readOnly: true });
  try {
    const folder: MemoryFolderRef =
      values.project !== undefined
        ? { kind: 'project', ...(await projectBySlug(engine, values.project)) }
        : { kind: 'agent', dir: resolve(values['agent-dir'] as string) };
    await engine.memoryHistory.recordNow();
    const blame = await explained(() => engine.memoryHistory.blame(folder, values.file as string));
    if (values.json) {
      io.stdout(`${JSON.stringify({ path: blame.path, lines: blame.lines.map(toJson) }, null, 2)}\n`);
      return 0;
    }
    if (blame.lines.length === 0) {
      io.stdout(blame.version === null ? `${blame.path} has no version with known text to blame.\n` : `${blame.path} is empty.\n`);
      return 0;
    }
    const width = String(blame.lines.length).length;
    io.stdout(`${blame.lines.map((line) => lineText(line, width)).join('\n')}\n`);
    return 0;
  } finally {
    await engine.dispose();
  }
}
