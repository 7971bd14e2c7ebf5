/** Where a command writes; tests pass buffers, the real CLI passes the process streams. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  /** The installed command's script, when this is its own process (not a test calling in): a command may start it again. */
  readonly entryScript?: string;
}

/** A user mistake or a refused operation: printed to stderr without a stack, with this exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
