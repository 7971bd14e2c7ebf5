import { CliError, type CliIo } from './cliIo';

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

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

/**
 * Each command's module is loaded only when that command runs: a one-shot read such as `ccmem transcript` must not
 * pay for loading the model SDKs, the MCP server and the web server that other commands need.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  serve: async () => (await import('./commands/serve')).runServe,
  projects: async () => (await import('./commands/projects')).runProjects,
  sessions: async () => (await import('./commands/sessions')).runSessions,
  search: async () => (await import('./commands/search')).runSearch,
  doctor: async () => (await import('./commands/doctor')).runDoctorCommand,
  agents: async () => (await import('./commands/agents')).runAgents,
  snapshot: async () => (await import('./commands/snapshot')).runSnapshot,
  dream: async () => {
    const [{ runDream }, { runDueDreams }] = await Promise.all([import('./commands/dream'), import('./commands/dreamDue')]);
    return (argv, io) => (argv.includes('--due') ? runDueDreams(argv, io) : runDream(argv, io));
  },
  extract: async () => (await import('./commands/extract')).runExtract,
  transcript: async () => (await import('./commands/transcript')).runTranscript,
  history: async () => (await import('./commands/history')).runHistory,
  archive: async () => (await import('./commands/archive')).runArchive,
  blame: async () => (await import('./commands/blame')).runBlame,
  restore: async () => (await import('./commands/restore')).runRestore,
  revert: async () => (await import('./commands/revert')).runRevert,
};

/** Runs one `ccmem` command and returns its exit code; never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    io.stdout(USAGE);
    return command === undefined ? 2 : 0;
  }
  const load = COMMANDS[command];
  if (!load) {
    io.stderr(`ccmem: unknown command '${command}'\n\n${USAGE}`);
    return 2;
  }
  try {
    const run = await load();
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
