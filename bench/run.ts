import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GENERATE_OPTIONS, runGenerateCommand } from './generator/generateCommand';
import { BENCH_SIZES, isBenchSize } from './generator/sizeProfiles';
import { readFile } from 'node:fs/promises';
import { resultTable } from './runner/resultTable';
import type { BenchResults } from './runner/runBenchmarks';
import { scaleTable } from './runner/scaleTable';
import { runBenchmarks } from './runner/runBenchmarks';

const USAGE = `Usage:
  npm run bench -- [--size ${BENCH_SIZES.join('|')}] [--json] [--seed N] [--runs N] [--results-dir DIR] [--only GROUP,…]
      Generates a synthetic ~/.claude of that size (default small) in a temporary folder, measures every
      figure (median, min and max of --runs runs, at least 3), prints one table (or one JSON object with
      --json) and writes bench/results/<date>-<size>.json. --only measures the named figure groups alone
      (the others are reported as skipped).
  npm run bench -- gen ${GENERATE_OPTIONS}
      Only writes the synthetic config root into DIR (new or empty).
  npm run bench -- scale RESULTS.json…
      Prints the figures of several results files (runs on homes of different sizes) side by side, smallest
      home first, as a Markdown table: the scale curve in docs/performance.md.
`;

const MIN_RUNS = 3;

async function main(argv: readonly string[]): Promise<number> {
  const output = { stdout: (text: string) => process.stdout.write(text), stderr: (text: string) => process.stderr.write(text) };
  if (argv[0] === 'gen') return runGenerateCommand(argv.slice(1), output, 'npm run bench -- gen');
  if (argv[0] === 'scale') {
    if (argv.length < 2) {
      process.stderr.write(USAGE);
      return 2;
    }
    const runs = await Promise.all(argv.slice(1).map(async (file) => JSON.parse(await readFile(file, 'utf8')) as BenchResults));
    process.stdout.write(scaleTable(runs));
    return 0;
  }
  const { values } = parseArgs({
    args: [...argv],
    options: {
      size: { type: 'string', default: 'small' },
      json: { type: 'boolean', default: false },
      seed: { type: 'string', default: '1' },
      runs: { type: 'string', default: String(MIN_RUNS) },
      'results-dir': { type: 'string', default: join(import.meta.dirname, 'results') },
      only: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const seed = Number(values.seed);
  const runs = Number(values.runs);
  if (!isBenchSize(values.size) || !Number.isSafeInteger(seed) || !Number.isInteger(runs) || runs < MIN_RUNS) {
    process.stderr.write(USAGE);
    return 2;
  }
  const { results, resultsFile } = await runBenchmarks({
    size: values.size,
    seed,
    runs,
    resultsDir: values['results-dir'],
    log: (message) => process.stderr.write(`${message}\n`),
    only: values.only?.split(',').map((name) => name.trim()),
  });
  process.stdout.write(values.json ? `${JSON.stringify(results, null, 2)}\n` : resultTable(results));
  process.stderr.write(`results written to ${resultsFile}\n`);
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1;
}
