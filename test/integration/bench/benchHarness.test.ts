import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FIGURE_IDS } from '../../../bench/runner/figures';

const repoRoot = resolve(import.meta.dirname, '../../..');
const RUNS = 3;

/** A figure as docs/performance.md documents it: numbers only when measured, never a stand-in. */
const figureSchema = z.discriminatedUnion('status', [
  z.strictObject({
    label: z.string().min(1),
    unit: z.string().min(1),
    status: z.literal('ok'),
    median: z.number().nonnegative(),
    min: z.number().nonnegative(),
    max: z.number().nonnegative(),
    samples: z.array(z.number().nonnegative()).length(RUNS),
    note: z.string().min(1),
  }),
  z.strictObject({
    label: z.string().min(1),
    unit: z.string().min(1),
    status: z.literal('not-built'),
    median: z.null(),
    min: z.null(),
    max: z.null(),
    samples: z.array(z.number()).length(0),
    note: z.literal('n/a (not built yet)'),
  }),
  z.strictObject({
    label: z.string().min(1),
    unit: z.string().min(1),
    status: z.literal('skipped'),
    median: z.null(),
    min: z.null(),
    max: z.null(),
    samples: z.array(z.number()).length(0),
    note: z.literal('not measured in this run (--only)'),
  }),
]);

const resultsSchema = z.strictObject({
  schema: z.literal(1),
  date: z.iso.datetime(),
  size: z.literal('small'),
  seed: z.literal(1),
  runs: z.literal(RUNS),
  machine: z.strictObject({
    cpuModel: z.string(),
    cpus: z.number().int().positive(),
    totalMemoryMB: z.number().positive(),
    node: z.string(),
    platform: z.string(),
    loadAverageStart: z.number().nonnegative(),
    loadAverageEnd: z.number().nonnegative(),
  }),
  home: z.strictObject({
    generationSeconds: z.number().positive(),
    generationMBps: z.number().positive(),
    bytes: z.strictObject({ total: z.number(), sessions: z.number(), subagents: z.number(), sidecars: z.number(), memory: z.number() }),
    counts: z.strictObject({
      projects: z.number().int(),
      sessions: z.number().int(),
      subagentFiles: z.number().int(),
      sidecarFiles: z.number().int(),
      memoryFiles: z.number().int(),
      compactions: z.number().int(),
    }),
    jsonlFiles: z.number().int().positive(),
    jsonlBytes: z.number().int().positive(),
    largestTranscriptBytes: z.number().int().positive(),
    doctorTopicFiles: z.literal(1000),
    searchNeedle: z.strictObject({ text: z.string(), transcriptOccurrences: z.number().int().positive(), memoryFiles: z.number().int() }),
  }),
  cacheNote: z.string().min(1),
  figures: z.strictObject(Object.fromEntries(FIGURE_IDS.map((id) => [id, figureSchema]))),
});

/** CI-scale proof that the harness runs end to end: the small home, every figure present and well-formed. No timing is asserted. */
describe('npm run bench -- --size small --json', () => {
  let tmp: string;
  let stdout: string;
  let stderr: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'ccmem-bench-run-'));
    const run = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'bench/run.ts', '--size', 'small', '--json', '--results-dir', tmp],
      // Every figure, three runs each, on a machine that may be busy with other work: minutes, not seconds.
      { cwd: repoRoot, maxBuffer: 16 << 20, timeout: 480_000 },
    );
    stdout = run.stdout;
    stderr = run.stderr;
  }, 500_000);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('prints one JSON object with every figure, each measured or honestly not built', () => {
    const results = resultsSchema.parse(JSON.parse(stdout));
    expect(Object.keys(results.figures)).toEqual(FIGURE_IDS);
    const failed = Object.entries(results.figures).filter(([, figure]) => figure.status !== 'ok' && figure.status !== 'not-built');
    expect(failed).toEqual([]);
  });

  it('writes the same object to <results-dir>/<date>-small.json', () => {
    const results = JSON.parse(stdout) as { date: string };
    const files = readdirSync(tmp);
    expect(files).toEqual([`${results.date.slice(0, 10)}-small.json`]);
    expect(JSON.parse(readFileSync(join(tmp, files[0]), 'utf8'))).toEqual(results);
    expect(stderr).toContain(join(tmp, files[0]));
  });
});

describe('npm run bench -- --only GROUP', () => {
  it('measures the named groups alone and reports every other figure as skipped', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ccmem-bench-only-'));
    try {
      const run = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'bench/run.ts', '--size', 'small', '--json', '--only', 'ceilings', '--results-dir', tmp],
        { cwd: repoRoot, maxBuffer: 16 << 20, timeout: 120_000 },
      );
      const results = resultsSchema.parse(JSON.parse(run.stdout));
      const measured = Object.entries(results.figures).filter(([, figure]) => figure.status !== 'skipped');
      expect(measured.map(([id, figure]) => [id, figure.status])).toEqual([
        ['ceilingRawReadMBps', 'ok'],
        ['ceilingJsonParseMBps', 'ok'],
      ]);
      await expect(
        promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--only', 'no such group', '--results-dir', tmp], {
          cwd: repoRoot,
        }),
      ).rejects.toThrow(/no figure group named no such group/);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 150_000);
});
