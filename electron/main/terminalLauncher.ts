import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { promises as fs } from 'node:fs';
import type { RequestHandlers } from '../../shared/contract/api';
import { CodedError } from '../../shared/result';
import { claudeResumeCommand, posixQuote } from '../../shared/transcript/resumeCommand';
import type { ResumeLaunch, TerminalSetting } from '../../shared/transcript/transcriptOutline';
import { replaceFileAtomically } from '../core/fs/replaceFileAtomically';
import type { TranscriptService } from '../core/transcripts/TranscriptService';

export type SpawnFunction = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/** Programs whose command line cmd.exe parses (itself, and batch files it runs), where `&`, `|`, `<`, `>` start commands. */
export function runsThroughCmd(program: string): boolean {
  const name = program.replace(/^.*[\\/]/, '').toLowerCase();
  return name === 'cmd' || name === 'cmd.exe' || name.endsWith('.bat') || name.endsWith('.cmd');
}

/** Words cmd.exe passes on as they are: no space, quote or character it treats specially. */
const CMD_PLAIN_WORD = /^[A-Za-z0-9_\-.:\\/@+]+$/;
/** Everything cmd.exe treats specially outside quotes (cross-spawn's list); each gets a caret. */
const CMD_META = /([()\][%!^"`<>&|;, *?=])/g;

/**
 * One argument on a command line that cmd.exe parses. The argument is quoted the way programs split their command
 * line (MSVCRT: trailing backslashes doubled before the closing quote), then every character cmd.exe treats specially
 * gets a caret, the quotes included, so cmd.exe sees no quoted part at all and takes every `&`, `|`, `<`, `>` as a
 * character. `%` is refused: cmd.exe expands `%name%` (and `%name:a=b%`) before it looks at carets, and a variable's
 * value could then end the command. So are `"` (never in a Windows file name) and control characters.
 */
export function cmdQuote(argument: string): string {
  if (/[%"\u0000-\u001f]/.test(argument)) {
    throw new CodedError(
      'INVALID_INPUT',
      `cmd.exe cannot be given ${JSON.stringify(argument)} safely (it holds %, " or a control character): use a terminal command without {cwd}, such as the default, or copy the command instead`,
    );
  }
  if (CMD_PLAIN_WORD.test(argument)) return argument;
  const quoted = `"${argument.replace(/(\\+)$/, '$1$1')}"`;
  return quoted.replace(CMD_META, '^$1');
}

/** What a terminal command template may contain; each placeholder is replaced inside the word it stands in. */
export interface TerminalPlaceholders {
  /** The session's directory. */
  readonly cwd: string;
  /** `claude --resume <id>` (with `--fork-session` for a fork). */
  readonly command: string;
  /** A POSIX shell line: `cd '<cwd>' && <command>`. */
  readonly script: string;
  /** `script` escaped for an AppleScript string literal. */
  readonly scriptForAppleScript: string;
}

/**
 * The terminal each platform has out of the box: Terminal.app through AppleScript on macOS, a new console window
 * through `start` on Windows, and Debian's `x-terminal-emulator` alternative elsewhere (the shell stays open after
 * Claude Code exits, so its last screen can be read). On Windows the folder is the process's working directory,
 * which `start` passes on: it never appears on a command line that cmd.exe parses.
 */
export function defaultTerminalCommand(platform: NodeJS.Platform): string {
  if (platform === 'darwin') {
    return 'osascript -e "tell application \\"Terminal\\" to do script \\"{scriptForAppleScript}\\"" -e "tell application \\"Terminal\\" to activate"';
  }
  if (platform === 'win32') return 'cmd.exe /c start "" cmd.exe /k {command}';
  return 'x-terminal-emulator -e sh -c "{script}; exec \\"${SHELL:-sh}\\""';
}

/** Splits a command line into words: whitespace separates, single quotes keep text as is, double quotes allow \" and \\. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote === "'") {
      if (char === "'") quote = null;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = null;
      else if (char === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) word += line[++i];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== null) throw new CodedError('INVALID_INPUT', 'The terminal command has an unclosed quote');
  if (inWord) words.push(word);
  return words;
}

/** The program and arguments to run for a template: placeholders are filled in per word, so a path with spaces stays one argument. */
export function terminalArgv(template: string, values: TerminalPlaceholders): string[] {
  const words = splitCommandLine(template);
  if (words.length === 0) throw new CodedError('INVALID_INPUT', 'The terminal command is empty');
  return words.map((word) =>
    word.replace(/\{(cwd|command|script|scriptForAppleScript)\}/g, (_match, name: keyof TerminalPlaceholders) => values[name]),
  );
}

export function placeholdersFor(cwd: string, sessionId: string, fork: boolean): TerminalPlaceholders {
  const command = claudeResumeCommand(sessionId, fork);
  const script = `cd ${posixQuote(cwd)} && ${command}`;
  return { cwd, command, script, scriptForAppleScript: script.replace(/\\/g, '\\\\').replace(/"/g, '\\"') };
}

export interface TerminalLauncherOptions {
  /** Where the chosen terminal command is kept (the app's own data folder, never a config root). */
  readonly settingsFile: string;
  readonly platform: NodeJS.Platform;
  readonly spawn: SpawnFunction;
}

/** Opens the user's terminal in a session's directory running `claude --resume`; the terminal command is a setting. */
export class TerminalLauncher {
  constructor(private readonly options: TerminalLauncherOptions) {}

  async getSetting(): Promise<TerminalSetting> {
    const defaultCommand = defaultTerminalCommand(this.options.platform);
    let command = defaultCommand;
    try {
      const saved: unknown = JSON.parse(await fs.readFile(this.options.settingsFile, 'utf8'));
      const value = (saved as { command?: unknown } | null)?.command;
      if (typeof value === 'string' && value.trim() !== '') command = value;
    } catch {
      // No setting saved yet (or an unreadable one): the platform's default applies.
    }
    return { command, defaultCommand, isDefault: command === defaultCommand };
  }

  /** Saves a terminal command; an empty one goes back to the platform's default. */
  async setSetting(command: string): Promise<TerminalSetting> {
    if (command.trim() !== '') splitCommandLine(command);
    await replaceFileAtomically(this.options.settingsFile, `${JSON.stringify({ command: command.trim() }, null, 2)}\n`);
    return this.getSetting();
  }

  /** Starts the terminal detached; resolves once it started, rejects with a readable error when it could not. */
  async launch(cwd: string, sessionId: string, fork: boolean): Promise<ResumeLaunch> {
    const { command } = await this.getSetting();
    const values = placeholdersFor(cwd, sessionId, fork);
    const [program, ...words] = terminalArgv(command, values);
    // Node quotes arguments for programs that split their command line like MSVCRT, not for cmd.exe: a folder named
    // `a&calc` would run calc. For cmd.exe the line is quoted here and passed as it is.
    const throughCmd = this.options.platform === 'win32' && runsThroughCmd(program);
    const args = throughCmd ? words.map(cmdQuote) : words;
    await new Promise<void>((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = this.options.spawn(program, args, { cwd, detached: true, stdio: 'ignore', windowsVerbatimArguments: throughCmd });
      } catch (error) {
        reject(new CodedError('NOT_FOUND', `Cannot start the terminal "${program}": ${(error as Error).message}`));
        return;
      }
      child.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new CodedError(
            'NOT_FOUND',
            `Cannot start the terminal "${program}" (${error.code ?? error.message}). Change the terminal command, or copy the command instead.`,
          ),
        ),
      );
      child.once('spawn', () => {
        child.unref();
        resolve();
      });
    });
    return { command: values.command, cwd, terminal: program };
  }
}

/** The desktop shell's answers to the resume requests, replacing the engine's "copy instead". */
export function resumeRequestHandlers(
  launcher: TerminalLauncher,
  transcripts: TranscriptService,
): Pick<RequestHandlers, 'resumeSession' | 'getTerminalSetting' | 'setTerminalSetting'> {
  return {
    resumeSession: async ({ fork, ...ref }) => {
      const target = await transcripts.resumeTarget(ref);
      const copy = fork ? target.commands.copyFork : target.commands.copyResume;
      if (target.cwd === null)
        throw new CodedError('NOT_FOUND', 'The session does not record its folder; copy the command instead.', { command: copy });
      if (!target.cwdExists)
        throw new CodedError('NOT_FOUND', `The session's folder ${target.cwd} no longer exists; copy the command instead.`, {
          command: copy,
        });
      return launcher.launch(target.cwd, ref.sessionId, fork);
    },
    getTerminalSetting: () => launcher.getSetting(),
    setTerminalSetting: ({ command }) => launcher.setSetting(command),
  };
}
