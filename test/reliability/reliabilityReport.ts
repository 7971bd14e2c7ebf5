/**
 * `npm run reliability`: runs the reliability suite (vitest) and its browser part (Playwright through
 * `ccmem serve`), then prints the figures one per line. A figure that no test measured is printed
 * as "n/a" with what it still needs. Exits non-zero when a test failed or a must-be-zero figure is not zero.
 *
 *   npm run reliability                      full scale (the soak counts)
 *   npm run reliability -- --scale ci        the counts `npm test` uses
 *   npm run reliability -- --skip-e2e        no build, no browser
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { figureCatalog, type FigureId, type FigureSpec } from './support/figureCatalog';
import { FIGURE_LOG_ENV, type FigureRecord } from './support/figureLog';

const repoRoot = resolve(import.meta.dirname, '../..');

function run(label: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv): boolean {
  process.stderr.write(`\n=== ${label}: ${[command, ...args].join(' ')}\n`);
  const result = spawnSync(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'inherit', 'inherit'] });
  return result.status === 0;
}

/** Sums the counts of every record per figure and part. */
function aggregate(records: readonly FigureRecord[]): Map<string, Map<string | null, Record<string, number>>> {
  const figures = new Map<string, Map<string | null, Record<string, number>>>();
  for (const record of records) {
    const parts = figures.get(record.figure) ?? new Map<string | null, Record<string, number>>();
    const sums = parts.get(record.part) ?? {};
    for (const [name, value] of Object.entries(record.counts)) sums[name] = (sums[name] ?? 0) + value;
    parts.set(record.part, sums);
    figures.set(record.figure, parts);
  }
  return figures;
}

function readRecords(file: string): FigureRecord[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as FigureRecord);
}

/** The printed lines, and the must-be-zero figures that were not zero. */
function formatFigures(records: readonly FigureRecord[], notRun: ReadonlyMap<string, string>): { lines: string[]; violations: string[] } {
  const figures = aggregate(records);
  const lines: string[] = [];
  const violations: string[] = [];
  for (const [id, spec] of Object.entries(figureCatalog) as [FigureId, FigureSpec][]) {
    const parts = figures.get(id);
    // The expected parts (each reported, n/a if unmeasured), then any other part a test measured (secret rules).
    const named = [...new Set([...Object.keys(spec.expectedParts ?? {}), ...[...(parts?.keys() ?? [])].filter((p) => p !== null)])];
    const partNames: (string | null)[] = named.length > 0 ? named : [null];
    for (const part of partNames) {
      const label = part === null ? spec.label : `${spec.label} (${part})`;
      const counts = parts?.get(part);
      if (!counts) {
        const needs = part !== null ? spec.expectedParts?.[part] : spec.needs;
        const needing = needs && needs !== 'foundation' && needs !== 'nothing' ? `; it needs ${needs}` : '';
        const reason = notRun.get(id) ?? `nothing measured it in this run${needing}: see the test output above`;
        lines.push(`${label}: n/a (${reason})`);
        continue;
      }
      lines.push(`${label}: ${spec.format(counts)}`);
      if (spec.mustBeZero && (counts[spec.mustBeZero] ?? 0) !== 0) violations.push(label);
    }
  }
  return { lines, violations };
}

function main(): number {
  const { values } = parseArgs({
    options: { scale: { type: 'string', default: 'full' }, 'skip-e2e': { type: 'boolean', default: false } },
    strict: true,
  });
  if (values.scale !== 'full' && values.scale !== 'ci') throw new Error(`--scale must be full or ci, not ${values.scale}`);
  const workDir = mkdtempSync(join(tmpdir(), 'ccmem-reliability-'));
  const figureLog = join(workDir, 'figures.jsonl');
  const env = { ...process.env, [FIGURE_LOG_ENV]: figureLog, CCMEM_RELIABILITY_SCALE: values.scale };
  const notRun = new Map<string, string>();
  const failures: string[] = [];

  const vitest = join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
  if (!run('reliability suite', process.execPath, [vitest, 'run', 'test/reliability'], env)) failures.push('the vitest reliability suite');

  if (values['skip-e2e']) {
    notRun.set('outboundRequests', 'not run: --skip-e2e');
  } else if (!run('build', 'npm', ['run', 'build'], env)) {
    failures.push('the build');
    notRun.set('outboundRequests', 'not run: the build failed');
  } else {
    const playwright = join(repoRoot, 'node_modules', '@playwright', 'test', 'cli.js');
    if (!run('browser part', process.execPath, [playwright, 'test', '--project=web', 'test/e2e/web/reliability'], env)) {
      failures.push('the Playwright reliability specs');
    }
  }

  const { lines, violations } = formatFigures(readRecords(figureLog), notRun);
  rmSync(workDir, { recursive: true, force: true });
  process.stdout.write(`\nReliability figures (scale: ${values.scale})\n${lines.join('\n')}\n`);
  for (const failure of failures) process.stdout.write(`FAILED: ${failure}\n`);
  for (const violation of violations) process.stdout.write(`NOT ZERO: ${violation}\n`);
  return failures.length > 0 || violations.length > 0 ? 1 : 0;
}

process.exitCode = main();
