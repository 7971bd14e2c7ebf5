import { CliError, type CliIo } from './cliIo';
import { runProjects } from './commands/projects';
import { runServe } from './commands/serve';

const USAGE = `Usage: ccmem <command> [options]

Commands:
  serve [--port P] [--host H] [--read-only]   Open the app in a browser (loopback only unless --host is given)
  projects [--json]                           List every project with its real path, sessions and memory

Environment:
  CLAUDE_CONFIG_DIR   Claude Code's config folder(s), comma-separated (default ~/.claude)
  CCMEM_DATA_DIR      Where this app keeps its own data
`;

const COMMANDS: Readonly<Record<string, (argv: readonly string[], io: CliIo) => Promise<number>>> = {
  serve: runServe,
  projects: runProjects,
};

/** Runs one `ccmem` command and returns its exit code; never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    io.stdout(USAGE);
    return command === undefined ? 2 : 0;
  }
  const run = COMMANDS[command];
  if (!run) {
    io.stderr(`ccmem: unknown command '${command}'\n\n${USAGE}`);
    return 2;
  }
  try {
    return await run(rest, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`ccmem ${command}: ${error.message}\n`);
      return error.exitCode;
    }
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`ccmem ${command}: ${(error as Error).message}\n`);
      return 2;
    }
    io.stderr(`ccmem ${command}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}
