import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTerminalCommand, TerminalLauncher, type SpawnFunction } from '../../../electron/main/terminalLauncher';
import { recordFigure } from '../support/figureLog';

const ID = '7b7c1f9e-2c7a-4d6b-9f5e-0a1b2c3d4e5f';

/** How Node's spawn (libuv's quote_cmd_arg) writes one argument on a Windows command line, unless told to pass it as is. */
function libuvQuote(arg: string): string {
  if (arg === '') return '""';
  if (!/[ \t"]/.test(arg)) return arg;
  if (!/["\\]/.test(arg)) return `"${arg}"`;
  let out = '"';
  let backslashes = 0;
  for (const char of arg) {
    if (char === '\\') {
      backslashes++;
      continue;
    }
    out += char === '"' ? `${'\\'.repeat(backslashes * 2 + 1)}"` : `${'\\'.repeat(backslashes)}${char}`;
    backslashes = 0;
  }
  return `${out}${'\\'.repeat(backslashes * 2)}"`;
}

/** Variables cmd.exe would know: values that end a command if they land unescaped on the line. */
const ENVIRONMENT: Readonly<Record<string, string>> = {
  PATH: 'C:\\Windows;C:\\Tools&calc.exe',
  USERNAME: 'me',
  CMDCMDLINE: 'cmd.exe /c "x" & calc.exe',
};

/**
 * A model of how cmd.exe reads its command line: phase 1 expands `%name%` (and `%name:…%`) of known variables, phase 2
 * drops escaping carets outside quotes and starts a new command at every `&`, `|`, `<`, `>` or line break there.
 */
function cmdCommands(line: string): string[] {
  let expanded = '';
  for (let i = 0; i < line.length; i++) {
    const close = line[i] === '%' ? line.indexOf('%', i + 1) : -1;
    const name =
      close > i
        ? line
            .slice(i + 1, close)
            .split(':')[0]
            .toUpperCase()
        : '';
    if (close > i && Object.hasOwn(ENVIRONMENT, name)) {
      expanded += ENVIRONMENT[name];
      i = close;
    } else expanded += line[i];
  }
  const commands: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < expanded.length; i++) {
    const char = expanded[i];
    if (quoted) {
      current += char;
      if (char === '"') quoted = false;
    } else if (char === '"') {
      quoted = true;
      current += char;
    } else if (char === '^') {
      if (i + 1 < expanded.length) current += expanded[++i];
    } else if ('&|<>\n\r'.includes(char)) {
      commands.push(current);
      current = '';
    } else current += char;
  }
  commands.push(current);
  return commands.filter((command) => command.trim() !== '');
}

/** How a program (and `start`) splits the command cmd.exe runs into arguments (MSVCRT rules). */
function msvcrtSplit(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (char === '\\') {
      let count = 0;
      while (line[i + count] === '\\') count++;
      i += count - 1;
      inWord = true;
      if (line[i + 1] !== '"') {
        word += '\\'.repeat(count);
        continue;
      }
      // Backslashes before a quote: half of them stay; an odd one out makes the quote a character.
      word += '\\'.repeat(Math.floor(count / 2));
      i++;
      if (count % 2 === 1) word += '"';
      else quoted = !quoted;
    } else if (char === '"') {
      quoted = !quoted;
      inWord = true;
    } else if ((char === ' ' || char === '\t') && !quoted) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The command line Windows would give the program, from what the launcher asked spawn for. */
function windowsCommandLine(program: string, args: readonly string[], options: SpawnOptions): string {
  return [program, ...args].map((arg) => (options.windowsVerbatimArguments ? arg : libuvQuote(arg))).join(' ');
}

/** Folder names that run a command, break out of quotes or expand a variable if cmd.exe gets them unquoted. */
const HOSTILE_FOLDERS = [
  'C:\\code\\a&calc',
  'C:\\code\\a && calc.exe',
  'C:\\code\\a^&calc',
  'C:\\code\\a|calc',
  'C:\\code\\a<in',
  'C:\\code\\a>out',
  'C:\\code\\(x) & calc',
  'C:\\code\\my app',
  'C:\\code\\!PATH!',
  'C:\\code\\a^',
  'C:\\code\\trailing\\',
  'C:\\code\\semi;colon,comma=eq',
  'C:\\code\\x"&calc&"y',
  'C:\\code\\100%',
  'C:\\code\\%PATH%',
  'C:\\code\\%CMDCMDLINE%',
  'C:\\code\\%PATH:W=&calc&%',
  'C:\\code\\a\nb',
];

function fakeSpawn() {
  const calls: { program: string; args: readonly string[]; options: SpawnOptions }[] = [];
  const spawn: SpawnFunction = (program, args, options) => {
    calls.push({ program, args, options });
    const child = Object.assign(new EventEmitter(), { unref: () => undefined }) as unknown as ChildProcess;
    setImmediate(() => child.emit('spawn'));
    return child;
  };
  return { spawn, calls };
}

describe('resuming a session on Windows never lets the folder name run a command', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ccmem-winresume-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('checks its own model of cmd.exe: an unquoted & starts a command, a quoted or escaped one does not', () => {
    expect(cmdCommands('cmd.exe /c start "" /D C:\\a&calc')).toHaveLength(2);
    expect(cmdCommands('cmd.exe /c start "" /D "C:\\a&calc"')).toHaveLength(1);
    expect(cmdCommands('cmd.exe /c echo ^"a^&b^"')).toEqual(['cmd.exe /c echo "a&b"']);
    expect(cmdCommands('cmd.exe /c echo %PATH%')).toHaveLength(2);
    expect(cmdCommands('cmd.exe /c echo ^%PATH^%')).toHaveLength(1);
    expect(msvcrtSplit('a "b c" "d\\\\" e\\f ""')).toEqual(['a', 'b c', 'd\\', 'e\\f', '']);
  });

  it('keeps the folder off the command line with the default terminal command', async () => {
    let executions = 0;
    for (const folder of HOSTILE_FOLDERS) {
      const { spawn, calls } = fakeSpawn();
      const launcher = new TerminalLauncher({ settingsFile: join(dir, 'default.json'), platform: 'win32', spawn });
      await launcher.launch(folder, ID, false);
      const [{ program, args, options }] = calls;
      const line = windowsCommandLine(program, args, options);
      const commands = cmdCommands(line);
      if (commands.length !== 1) executions++;
      expect(commands, `${JSON.stringify(folder)} → ${line}`).toHaveLength(1);
      expect(options.cwd).toBe(folder);
      expect(line).not.toContain(folder);
      expect(msvcrtSplit(commands[0]).slice(-3)).toEqual(['cmd.exe', '/k', `claude --resume ${ID}`]);
    }
    recordFigure('codeExecutions', { executions, attempts: HOSTILE_FOLDERS.length });
    expect(defaultTerminalCommand('win32')).not.toContain('{cwd}');
  });

  it('quotes the folder for cmd.exe in a terminal command that names it, or refuses what cannot be quoted', async () => {
    const settingsFile = join(dir, 'custom.json');
    let executions = 0;
    let refused = 0;
    for (const template of [
      'cmd.exe /c start "" /D {cwd} cmd.exe /k {command}',
      'C:\\Windows\\System32\\CMD.EXE /c start "my {cwd}" /D {cwd} cmd.exe /k {command}',
    ]) {
      for (const folder of HOSTILE_FOLDERS) {
        const { spawn, calls } = fakeSpawn();
        const launcher = new TerminalLauncher({ settingsFile, platform: 'win32', spawn });
        await launcher.setSetting(template);
        const launched = await launcher.launch(folder, ID, false).then(
          () => true,
          (error: { code?: string }) => {
            expect(error.code).toBe('INVALID_INPUT');
            return false;
          },
        );
        if (!launched) {
          refused++;
          expect(calls).toEqual([]);
          expect(/[%"\n]/.test(folder), `${JSON.stringify(folder)} was refused`).toBe(true);
          continue;
        }
        const [{ program, args, options }] = calls;
        const line = windowsCommandLine(program, args, options);
        const commands = cmdCommands(line);
        if (commands.length !== 1) executions++;
        expect(commands, `${JSON.stringify(folder)} → ${line}`).toHaveLength(1);
        const words = msvcrtSplit(commands[0]);
        // What `start` is given is exactly the folder, as one argument.
        expect(words[words.indexOf('/D') + 1]).toBe(folder);
        expect(words.slice(-3)).toEqual(['cmd.exe', '/k', `claude --resume ${ID}`]);
      }
    }
    recordFigure('codeExecutions', { executions, attempts: HOSTILE_FOLDERS.length * 2 });
    expect(executions).toBe(0);
    expect(refused).toBe(2 * HOSTILE_FOLDERS.filter((folder) => /[%"\n]/.test(folder)).length);
  });

  it('leaves programs that split their own command line to Node, and other platforms as they were', async () => {
    const { spawn, calls } = fakeSpawn();
    const launcher = new TerminalLauncher({ settingsFile: join(dir, 'wt.json'), platform: 'win32', spawn });
    await launcher.setSetting('wt.exe -d {cwd} cmd /k {command}');
    await launcher.launch('C:\\code\\a&calc', ID, false);
    expect(calls[0]).toMatchObject({ program: 'wt.exe', args: ['-d', 'C:\\code\\a&calc', 'cmd', '/k', `claude --resume ${ID}`] });
    expect(calls[0].options.windowsVerbatimArguments).toBe(false);
  });
});
