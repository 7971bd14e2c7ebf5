import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { promises as fs } from 'node:fs';
import type { RequestHandlers } from '../../shared/contract/api';
import { CodedError } from '../../shared/result';
import { claudeResumeCommand, posixQuote } from '../../shared/transcript/resumeCommand';
import type { ResumeLaunch, TerminalSetting } from '../../shared/transcript/transcriptOutline';
import { replaceFileAtomically } from '../core/fs/replaceFileAtomically';
import type { TranscriptService } from '../core/transcripts/TranscriptService';

export type SpawnFunction = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

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
 * Claude Code exits, so its last screen can be read).
 */
export function defaultTerminalCommand(platform: NodeJS.Platform): string {
  if (platform === 'darwin') {
    return 'osascript -e "tell application \\"Terminal\\" to do script \\"{scriptForAppleScript}\\"" -e "tell application \\"Terminal\\" to activate"';
  }
  if (platform === 'win32') return 'cmd.exe /c start "" /D {cwd} cmd.exe /k {command}';
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
    const [program, ...args] = terminalArgv(command, values);
    await new Promise<void>((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = this.options.spawn(program, args, { cwd, detached: true, stdio: 'ignore' });
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
