import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForNode } from '../support/bundleForNode';
import { recordFigure } from '../support/figureLog';
import { KILLED_WRITER_VERSIONS } from './killedWriterVersions';
import { atScale, timeoutAtScale } from '../support/reliabilityScale';

const CHILD_SOURCE = join(import.meta.dirname, 'killedWriterChild.ts');
const [VERSION_A, VERSION_B] = KILLED_WRITER_VERSIONS;
/** The safe writer's side files: temp files and versions moved aside, named with the writing process's PID. */
const SIDE_FILE = /^\.(.+)\.(\d+)\.[0-9a-f]{12}(?:\.(previous))?\.tmp$/;

const sandbox = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-killed-')));
const childScript = join(sandbox, 'child', 'killedWriterChild.mjs');
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

beforeAll(() => bundleForNode(CHILD_SOURCE, childScript));

function startWriter(root: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [childScript, root, 'killed.md'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`the writer exited with ${code} before it was ready`)));
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Reads the file as another program would; a swap in progress by the running writer may hide it for a moment. */
function readSettled(file: string): string | null {
  for (let attempt = 0; attempt < 1_000; attempt++) {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return null;
}

describe('the writer killed at random points', () => {
  it(
    'leaves the file exactly the old or the new version, and the next start clears what the killed one left',
    async () => {
      const root = join(sandbox, 'memory');
      const file = join(root, 'killed.md');
      mkdirSync(root, { recursive: true });
      const kills = atScale(6, 1_000);
      let writer = await startWriter(root);
      let survived = 0;
      let left = 0;
      let lost = 0;
      const problems: string[] = [];
      for (let kill = 1; kill <= kills; kill++) {
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 60));
        const deadPid = writer.pid;
        await killed(writer);
        // The next start: its first save clears the dead writer's side files before anything else.
        writer = await startWriter(root);
        const text = readSettled(file);
        const whole = text === VERSION_A || text === VERSION_B;
        const leftovers = readdirSync(root).filter((name) => {
          const match = SIDE_FILE.exec(name);
          return match !== null && Number(match[2]) !== writer.pid;
        });
        left += leftovers.length;
        if (!whole) lost++;
        if (whole && leftovers.length === 0) survived++;
        else
          problems.push(`kill ${kill} (pid ${deadPid}): ${whole ? '' : 'the file is not a whole version; '}left ${leftovers.join(', ')}`);
      }
      await killed(writer);
      recordFigure('faults', { injected: kills, survived }, 'writer killed');
      recordFigure('tempFilesLeft', { left, starts: kills });
      recordFigure('dataLost', { lost, checked: kills });
      expect(problems).toEqual([]);
    },
    timeoutAtScale(60_000, 3_600_000),
  );
});
