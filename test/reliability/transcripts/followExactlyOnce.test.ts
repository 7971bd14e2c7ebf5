import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForNode } from '../support/bundleForNode';
import { recordFigure } from '../support/figureLog';
import { atScale, timeoutAtScale } from '../support/reliabilityScale';

const sandbox = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-follow-')));
const follower = join(sandbox, 'bin', 'follower', 'transcriptFollowerChild.mjs');
const appender = join(sandbox, 'bin', 'appender', 'transcriptAppenderChild.mjs');

beforeAll(async () => {
  await bundleForNode(join(import.meta.dirname, 'transcriptFollowerChild.ts'), follower);
  await bundleForNode(join(import.meta.dirname, 'transcriptAppenderChild.ts'), appender);
});
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

function run(script: string, args: readonly string[]): ChildProcess {
  return spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
}

interface FollowerState {
  readonly offset: number;
  readonly next: number;
  readonly errors: readonly string[];
  readonly reads: number;
}

describe('following a transcript another process appends to', () => {
  it(
    'delivers every record exactly once across kills and restarts from the saved offset',
    async () => {
      const total = atScale(3_000, 10_000);
      const kills = atScale(10, 30);
      const transcript = join(sandbox, 'live.jsonl');
      const stateFile = join(sandbox, 'follower-state.json');
      writeFileSync(transcript, '');
      const writer = run(appender, [transcript, String(total)]);
      let reader = run(follower, [transcript, stateFile, String(total)]);
      let restarts = 0;
      for (let kill = 0; kill < kills; kill++) {
        await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 60));
        if (reader.exitCode !== null) break;
        reader.kill('SIGKILL');
        await exited(reader);
        reader = run(follower, [transcript, stateFile, String(total)]);
        restarts++;
      }
      expect(await exited(writer)).toBe(0);
      expect(await exited(reader)).toBe(0);
      const state = JSON.parse(readFileSync(stateFile, 'utf8')) as FollowerState;
      recordFigure(
        'faults',
        { injected: restarts, survived: state.errors.length === 0 && state.next === total ? restarts : 0 },
        'follower killed',
      );
      recordFigure('badInputs', { tried: total }, 'transcripts');
      expect(state.errors).toEqual([]);
      expect(state.next).toBe(total);
      expect(state.offset).toBe(readFileSync(transcript).length);
      // The kills must have landed while there was still something to follow.
      expect(restarts).toBe(kills);
    },
    timeoutAtScale(60_000, 900_000),
  );
});
