import { CliError, type CliIo } from './cliIo';
import { runAgents } from './commands/agents';
import { runArchive } from './commands/archive';
import { runBlame } from './commands/blame';
import { runDoctorCommand } from './commands/doctor';
import { runDream } from './commands/dream';
import { runDueDreams } from './commands/dreamDue';
import { runExtract } from './commands/extract';
import { runProjects } from './commands/projects';
import { runSearch } from './commands/search';
import { runServe } from './commands/serve';
import { runSessions } from './commands/sessions';
import { runSnapshot } from './commands/snapshot';
import { runHistory } from './commands/history';
import { runRestore } from './commands/restore';
import { runRevert } from './commands/revert';
import { runTranscript } from './commands/transcript';

const USAGE = `Usage: ccmem <command> [options]

Commands:
  serve [--port P] [--host H] [--read-only]   Open the app in a browser (loopback only unless --host is given)
  projects [--json]                           List every project with its real path, sessions and memory
  sessions [--project SLUG] [--json]          Every session, newest first: title, prompts, tokens, sub-agents, memory writes
  search <query> [--json] [--limit N] [--request-records] [--project SLUG] [--kind K] [--since DAY] [--until DAY]
                                              Lines of every transcript, tool output and memory file with the text, newest first
  doctor [--project SLUG] [--json] [--strict] [--agents]
                                              Check memory folders: what the model sees, stale, duplicate, secret, broken
  doctor --fix CODE [--cure KIND] [--file PATH] [--project SLUG] [--dry-run] [--json]
                                              Cure every finding with that code; prints each file's diff
  agents [--json]                             List agent memory in the user, project and local scopes, with snapshot status
  snapshot --agent TYPE --project SLUG (--create | --initialize | --replace) [--scope project|local] [--dry-run] [--overwrite-newer]
                                              Create a project agent's memory snapshot, or initialise/replace its memory from it
  dream --project SLUG [--via claude-code|api] [--json] [--apply]
                                              Consolidate a project's memory with the model; prints the proposed changes
  dream --due [--via claude-code|api] [--json]
                                              A staged dream for every project whose Claude Code gate would fire now (cron)
  extract --session ID [--turns A-B] [--via claude-code|api] [--json] [--apply]
                                              Replay memory extraction over a session; prints the proposed changes
  transcript <sessionId> [--json | --html | --usage [--json]] [--agent ID]
                                              A session's live branch: Markdown, HTML, normalised entries as JSON, or token use per turn
  archive [--json] [--prune-before DATE] [--delete-project SLUG] [--enable | --disable] [--max-size SIZE|none]
                                              Keep compressed copies of transcripts against Claude Code's cleanup; show, prune
  history [--project SLUG] [--file PATH] [--since DATE] [--json]
                                              Record what changed in memory since the last run (and reconstruct what came
                                              before history started), then list every change set
  blame (--project SLUG | --agent-dir DIR) --file PATH [--json]
                                              Each line of a memory file with the change that brought it in
  restore --project SLUG --file PATH --version HASH [--dry-run]
                                              Put one memory file back to a version from its history
  revert --change-set ID [--dry-run]          Put every file of a change set back as it was before it (refused on conflict)

Environment:
  CLAUDE_CONFIG_DIR   Claude Code's config folder(s), comma-separated (default ~/.claude)
  CCMEM_DATA_DIR      Where this app keeps its own data
  ANTHROPIC_API_KEY   The key dream and extract use with --via api (the default when it is set); ANTHROPIC_BASE_URL
                      points them at a proxy. Without a key they run through Claude Code (your own claude, logged in)
  CCMEM_CLAUDE_PATH   The claude that --via claude-code runs (default: the one on the PATH)
`;

const COMMANDS: Readonly<Record<string, (argv: readonly string[], io: CliIo) => Promise<number>>> = {
  serve: runServe,
  projects: runProjects,
  sessions: runSessions,
  search: runSearch,
  doctor: runDoctorCommand,
  agents: runAgents,
  snapshot: runSnapshot,
  dream: (argv, io) => (argv.includes('--due') ? runDueDreams(argv, io) : runDream(argv, io)),
  extract: runExtract,
  transcript: runTranscript,
  history: runHistory,
  archive: runArchive,
  blame: runBlame,
  restore: runRestore,
  revert: runRevert,
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
    // One line, like every other error; the stack only when asked for (CCMEM_DEBUG=1).
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    const stack = io.env.CCMEM_DEBUG && error instanceof Error && error.stack ? `\n${error.stack}` : '';
    io.stderr(`ccmem ${command}: ${message}${stack}\n`);
    return 1;
  }
}
