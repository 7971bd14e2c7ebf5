/**
 * Follows a transcript another process is appending to, the way the catalog does: from a saved offset, with the
 * app's offset-following reader. Each record must be the next one expected (its `seq`), whole (its text intact).
 * After each read the new offset and the next expected `seq` are saved together, atomically, so a kill at any
 * point restarts from a consistent place. Exits once `total` records were taken. Bundled and run by
 * followExactlyOnce.test.ts.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readJsonlLines } from '../../../electron/core/jsonl/fileLineReader';
import { recordText } from './followedRecord';

interface FollowerState {
  readonly offset: number;
  readonly lines: number;
  readonly next: number;
  readonly errors: readonly string[];
  readonly reads: number;
}

const [transcript, stateFile, totalText] = process.argv.slice(2);
const total = Number(totalText);

function load(): FollowerState {
  try {
    return JSON.parse(readFileSync(stateFile, 'utf8')) as FollowerState;
  } catch {
    return { offset: 0, lines: 0, next: 0, errors: [], reads: 0 };
  }
}

function save(state: FollowerState): void {
  writeFileSync(`${stateFile}.tmp`, JSON.stringify(state));
  renameSync(`${stateFile}.tmp`, stateFile);
}

let state = load();
while (state.next < total) {
  let next = state.next;
  const errors = [...state.errors];
  const result = await readJsonlLines(transcript, {
    fromOffset: state.offset,
    linesBefore: state.lines,
    onLine: (line) => {
      let record: { seq?: unknown; text?: unknown };
      try {
        record = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(line)) as { seq?: unknown; text?: unknown };
      } catch (error) {
        errors.push(`a line that is not whole UTF-8 JSON after seq ${next - 1}: ${String(error).slice(0, 80)}`);
        return;
      }
      if (record.seq !== next) errors.push(`expected seq ${next}, got ${String(record.seq)}`);
      else if (record.text !== recordText(next)) errors.push(`seq ${next} arrived with damaged text`);
      next = typeof record.seq === 'number' ? record.seq + 1 : next;
    },
  });
  state = { offset: result.offset, lines: result.lines, next, errors: errors.slice(0, 20), reads: state.reads + 1 };
  save(state);
  await new Promise((resolve) => setTimeout(resolve, 2));
}
process.stdout.write('done\n');
