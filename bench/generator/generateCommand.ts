import { parseArgs } from 'node:util';
import { generateHome } from './generateHome';
import { BENCH_SIZES, isBenchSize } from './sizeProfiles';

export interface CommandOutput {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

export const GENERATE_OPTIONS = `--size ${BENCH_SIZES.join('|')} --out DIR [--seed N] [--json]`;

/**
 * `… gen --size S --out DIR [--seed N] [--json]`, the runner's `npm run bench -- gen`
 * (`command` names which, for the usage line): writes a synthetic config root into DIR (new or empty) and
 * prints what it wrote. Returns the exit code.
 */
export async function runGenerateCommand(argv: readonly string[], output: CommandOutput, command: string): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      size: { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string', default: '1' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const seed = Number(values.seed);
  if (!values.size || !isBenchSize(values.size) || !values.out || !Number.isSafeInteger(seed)) {
    output.stderr(`usage: ${command} ${GENERATE_OPTIONS}\n`);
    return 2;
  }
  let home;
  try {
    home = await generateHome({ size: values.size, out: values.out, seed });
  } catch (error) {
    output.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  if (values.json) {
    output.stdout(`${JSON.stringify(home, null, 2)}\n`);
  } else {
    output.stdout(
      `Wrote ${(home.bytes.total / 1e6).toFixed(0)} MB to ${home.root} in ${home.seconds.toFixed(1)} s (${home.mbPerSecond.toFixed(0)} MB/s): ` +
        `${home.counts.projects} projects, ${home.counts.sessions} sessions, ${home.counts.subagentFiles} sub-agent files, ` +
        `${home.counts.memoryFiles} memory files, ${home.counts.compactions} compactions.\n` +
        `Point Claude Code readers at it with CLAUDE_CONFIG_DIR=${home.root}\n`,
    );
  }
  return 0;
}
