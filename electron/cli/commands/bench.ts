import { GENERATE_OPTIONS, runGenerateCommand } from '../../../bench/generator/generateCommand';
import type { CliIo } from '../cliIo';

/**
 * `ccmem bench gen --size S --out DIR [--seed N] [--json]`: writes a synthetic config root for trying the app
 * (or any reader of `~/.claude`) at scale. The benchmark runner itself is `npm run bench` in a checkout, as it
 * needs ccusage and tsx from the dev dependencies.
 */
export async function runBench(argv: readonly string[], io: CliIo): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand !== 'gen') {
    io.stderr(`usage: ccmem bench gen ${GENERATE_OPTIONS}\nThe benchmarks themselves run with \`npm run bench\` in a checkout.\n`);
    return 2;
  }
  return runGenerateCommand(rest, io, 'ccmem bench gen');
}
