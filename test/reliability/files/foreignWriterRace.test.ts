import { spawn } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodedError } from '../../../shared/result';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { createEngine } from '../../../electron/core/engine';
import { HistoryStore } from '../../../electron/core/changes/HistoryStore';
import { HomeService } from '../../../electron/core/home/HomeService';
import { MemoryReviewService } from '../../../electron/core/memory/MemoryReviewService';
import { createScenarioHome, topicFile } from '../../fixtures/scenarioHome';
import { FaultInjector } from '../support/faultInjector';
import { recordFigure } from '../support/figureLog';
import { atScale, timeoutAtScale } from '../support/reliabilityScale';
import { ChangeSetWriter } from '../../../electron/core/changes/changeSetWriter';

/**
 * Imitates Claude Code's Write tool on memory files: read the file, write a new version to a temp file, rename
 * it over the original, about a thousand times a second across the files. Logs, per write, the version it
 * found (so a version someone else put there in between is visible) and the version it wrote.
 */
const FOREIGN_WRITER = `
const { readFileSync, writeFileSync, renameSync } = require('node:fs');
const { createHash } = require('node:crypto');
const [filesJson, seconds, stopAfter] = process.argv.slice(1);
const files = JSON.parse(filesJson);
const hash = (b) => createHash('sha256').update(b).digest('hex');
const pause = new Int32Array(new SharedArrayBuffer(4));
const log = [];
const end = Date.now() + Number(seconds) * 1000;
let i = 0;
while (Date.now() < end) {
  const file = files[i % files.length];
  let found;
  try { found = readFileSync(file); } catch (error) { if (error.code !== 'ENOENT') throw error; found = Buffer.from('---\\nname: recreated\\n'); }
  const head = found.toString().split('\\n---\\n')[0];
  const next = Buffer.from(head + '\\n---\\nClaude Code wrote version ' + i + ' of this memory.\\n');
  writeFileSync(file + '.cc.tmp', next);
  renameSync(file + '.cc.tmp', file);
  log.push({ file, found: hash(found), wrote: hash(next) });
  i++;
  Atomics.wait(pause, 0, 0, 1);
}
process.stdout.write(JSON.stringify(log));
`;

interface ForeignWrite {
  readonly file: string;
  readonly found: string;
  readonly wrote: string;
}

describe('a writer imitating Claude Code rewrites memory about 1,000 times a second while the app edits it', () => {
  it(
    'loses no foreign version: each one the app overwrote it had seen, or history holds it',
    async () => {
      const home = await createScenarioHome({ prefix: 'ccmem-foreign-' });
      const engine = await createEngine({
        roots: [{ path: home.root, source: 'CLAUDE_CONFIG_DIR' }],
        dataDir: join(home.tmp, 'data'),
        demoHomeSource: null,
        shell: 'cli',
        readOnly: false,
        watch: true,
      });
      await engine.ready;
      try {
        const project = home.project(home.workPath('contended'));
        await project.session({ turns: 1 });
        const names = ['alpha.md', 'beta.md', 'gamma.md'];
        const files: string[] = [];
        for (const name of names) {
          files.push(
            await project.memory(name, topicFile({ variant: 'flat', name, description: 'contended', type: 'project', body: 'First.\n' })),
          );
        }
        await engine.home.refresh();
        const ref = { kind: 'project' as const, configRoot: home.root, slug: project.slug };

        const seconds = atScale(2, 60);
        const writer = spawn(process.execPath, ['-e', FOREIGN_WRITER, JSON.stringify(files), String(seconds)], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let output = '';
        writer.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        const finished = new Promise<void>((resolve) => writer.once('exit', () => resolve()));

        let saves = 0;
        let conflicts = 0;
        const appWrites: { file: string; base: string; wrote: string }[] = [];
        let running = true;
        void finished.then(() => (running = false));
        for (let j = 0; running; j++) {
          const name = names[j % names.length];
          try {
            const opened = await engine.memory.readFile(ref, name);
            const result = await engine.memory.save(ref, {
              relativePath: name,
              baseHash: opened.hash,
              body: `The app wrote version ${j}.\n`,
            });
            saves++;
            appWrites.push({ file: join(project.memoryDir, name), base: opened.hash, wrote: result.hash ?? '' });
          } catch (error) {
            if (error instanceof CodedError && error.code === 'CONFLICT') conflicts++;
            else if (!(error instanceof CodedError && error.code === 'INVALID_INPUT')) throw error;
          }
        }
        await finished;
        const foreign = JSON.parse(output) as ForeignWrite[];

        // A foreign version was overwritten by the app when the writer, coming back to the file, found something else.
        const overwritten: ForeignWrite[] = [];
        const lastByFile = new Map<string, ForeignWrite>();
        for (const write of foreign) {
          const previous = lastByFile.get(write.file);
          if (previous && write.found !== previous.wrote) overwritten.push(previous);
          lastByFile.set(write.file, write);
        }
        for (const [file, last] of lastByFile) {
          if (contentHash(await readFile(file)) !== last.wrote) overwritten.push(last);
        }
        const seenByApp = new Set(appWrites.map((w) => w.base));
        let unrecoverable = 0;
        for (const version of overwritten) {
          if (seenByApp.has(version.wrote)) continue;
          const inHistory = await engine.history.readBlob(version.wrote).then(
            () => true,
            () => false,
          );
          if (!inHistory) unrecoverable++;
        }
        const landedInside = overwritten.filter((version) => !seenByApp.has(version.wrote)).length;
        recordFigure('conflicts', {
          detected: conflicts + landedInside,
          recovered: conflicts + landedInside - unrecoverable,
          foreignWrites: foreign.length,
        });
        recordFigure('dataLost', { lost: unrecoverable, checked: foreign.length });
        // The pace depends on how busy the machine is; what matters is that the writer ran and raced the app.
        expect(foreign.length).toBeGreaterThan(10);
        expect(saves + conflicts).toBeGreaterThan(0);
        expect(unrecoverable, `${unrecoverable} of ${overwritten.length} overwritten foreign versions are in no history`).toBe(0);
        // Whatever is on disk now is a whole version someone wrote.
        const known = new Set([...foreign.map((w) => w.wrote), ...appWrites.map((w) => w.wrote)]);
        for (const file of files) expect(known.has(contentHash(await readFile(file)))).toBe(true);
      } finally {
        await engine.dispose();
        await home.cleanup();
      }
    },
    timeoutAtScale(40_000, 600_000),
  );
});

describe('a foreign write landing at each step of an app save or prune', () => {
  it('is detected, and the foreign version stays on disk or can be had back from history', async () => {
    const home = await createScenarioHome({ prefix: 'ccmem-interleave-' });
    const project = home.project(home.workPath('interleaved'));
    await project.session({ turns: 1 });
    const original = topicFile({ variant: 'flat', name: 'shared', description: 'written by both', type: 'project', body: 'Original.\n' });
    const file = await project.memory('shared.md', original);
    const history = new HistoryStore(join(home.tmp, 'data', 'history'));
    const service = new MemoryReviewService({
      home: new HomeService({
        roots: [{ path: home.root, source: 'CLAUDE_CONFIG_DIR' }],
        dataDir: join(home.tmp, 'data'),
        demoHomeSource: null,
        shell: 'cli',
        readOnly: false,
      }),
      writer: new ChangeSetWriter({ history }),
      live: null,
    });
    const ref = { kind: 'project' as const, configRoot: home.root, slug: project.slug };
    const injector = new FaultInjector(project.memoryDir);
    await injector.install();
    try {
      const problems: string[] = [];
      let foreignWrites = 0;
      let detected = 0;
      let recovered = 0;
      let lost = 0;
      for (const operation of ['save', 'prune'] as const) {
        // A clean run counts the steps; then Claude Code's write lands before each of them in turn.
        let steps = 0;
        for (let step = 0; step === 0 || step <= steps; step++) {
          writeFileSync(file, original);
          injector.arm(null);
          const { hash } = await service.readFile(ref, 'shared.md');
          const foreign = `${original}Claude Code wrote this while the app was busy (${operation}, step ${step}).\n`;
          if (step === 0) injector.arm(null);
          else {
            foreignWrites++;
            injector.armInterleaving(step, () => {
              writeFileSync(`${file}.cc.tmp`, foreign);
              renameSync(`${file}.cc.tmp`, file);
            });
          }
          let conflict = false;
          try {
            if (operation === 'save')
              await service.save(ref, { relativePath: 'shared.md', baseHash: hash, body: `App ${operation} ${step}.\n` });
            else await service.prune(ref, { relativePath: 'shared.md', baseHash: hash });
          } catch (error) {
            if (!(error instanceof CodedError && error.code === 'CONFLICT')) throw error;
            conflict = true;
          }
          if (step === 0) {
            steps = injector.trace.length;
            continue;
          }
          const onDisk = await readFile(file, 'utf8').catch(() => null);
          const kept = onDisk === foreign;
          const inHistory = await history.readBlob(contentHash(foreign)).then(
            () => true,
            () => false,
          );
          // Landing inside the app's write shows as a conflict; landing after it, the foreign version simply stays.
          if (conflict) detected++;
          if (conflict && (kept || inHistory)) recovered++;
          if (!kept && !inHistory) {
            lost++;
            problems.push(
              `${operation}, foreign write before step ${step} (${injector.trace[step - 1]}): ${conflict ? 'detected, but ' : 'not detected, and '}the foreign version is gone`,
            );
          }
        }
      }
      recordFigure('conflicts', { detected, recovered, foreignWrites });
      recordFigure('dataLost', { lost, checked: foreignWrites });
      expect(problems).toEqual([]);
    } finally {
      injector.uninstall();
      service.dispose();
      await home.cleanup();
    }
  });
});
