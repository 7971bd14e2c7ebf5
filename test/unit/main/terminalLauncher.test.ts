import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultTerminalCommand,
  placeholdersFor,
  splitCommandLine,
  TerminalLauncher,
  terminalArgv,
  type SpawnFunction,
} from '../../../electron/main/terminalLauncher';

const ID = '7b7c1f9e-2c7a-4d6b-9f5e-0a1b2c3d4e5f';

/** A spawn that records what it was asked to run and then reports started (or failed). */
function fakeSpawn(outcome: 'spawn' | 'error') {
  const calls: { command: string; args: readonly string[]; cwd: unknown; detached: unknown }[] = [];
  const spawn: SpawnFunction = (command, args, options) => {
    calls.push({ command, args, cwd: options.cwd, detached: options.detached });
    const child = Object.assign(new EventEmitter(), { unref: () => undefined }) as unknown as ChildProcess;
    setImmediate(() =>
      outcome === 'spawn' ? child.emit('spawn') : child.emit('error', Object.assign(new Error('spawn x ENOENT'), { code: 'ENOENT' })),
    );
    return child;
  };
  return { spawn, calls };
}

describe('terminal command templates', () => {
  it('splits words with single and double quotes and escaped quotes', () => {
    expect(splitCommandLine(`a 'b c' "d \\"e\\"" f\\g ""`)).toEqual(['a', 'b c', 'd "e"', 'f\\g', '']);
    expect(() => splitCommandLine('a "b')).toThrow(/unclosed quote/);
  });

  it('fills placeholders per word, so a folder with spaces and quotes stays one argument', () => {
    const values = placeholdersFor(`/home/me/my "odd" project`, ID, true);
    expect(values.command).toBe(`claude --resume ${ID} --fork-session`);
    expect(values.script).toBe(`cd '/home/me/my "odd" project' && claude --resume ${ID} --fork-session`);
    expect(terminalArgv('term --cwd {cwd} -e {command}', values)).toEqual([
      'term',
      '--cwd',
      `/home/me/my "odd" project`,
      '-e',
      values.command,
    ]);
    const mac = terminalArgv(defaultTerminalCommand('darwin'), values);
    expect(mac[0]).toBe('osascript');
    expect(mac[2]).toBe(
      `tell application "Terminal" to do script "cd '/home/me/my \\"odd\\" project' && claude --resume ${ID} --fork-session"`,
    );
    expect(terminalArgv(defaultTerminalCommand('win32'), placeholdersFor('C:\\code\\app', ID, false))).toEqual([
      'cmd.exe',
      '/c',
      'start',
      '',
      'cmd.exe',
      '/k',
      `claude --resume ${ID}`,
    ]);
    expect(terminalArgv(defaultTerminalCommand('linux'), values).slice(0, 4)).toEqual(['x-terminal-emulator', '-e', 'sh', '-c']);
  });
});

describe('TerminalLauncher', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ccmem-terminal-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('keeps the terminal command as a setting in its own file, with the platform default until changed', async () => {
    const settingsFile = join(dir, 'data', 'terminal.json');
    const launcher = new TerminalLauncher({ settingsFile, platform: 'linux', spawn: fakeSpawn('spawn').spawn });
    expect(await launcher.getSetting()).toEqual({
      command: defaultTerminalCommand('linux'),
      defaultCommand: defaultTerminalCommand('linux'),
      isDefault: true,
    });
    expect(await launcher.setSetting('kitty --directory {cwd} {command}')).toMatchObject({
      command: 'kitty --directory {cwd} {command}',
      isDefault: false,
    });
    expect(JSON.parse(await readFile(settingsFile, 'utf8'))).toEqual({ command: 'kitty --directory {cwd} {command}' });
    expect((await launcher.setSetting('')).isDefault).toBe(true);
    await expect(launcher.setSetting('broken "quote')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('starts the terminal detached in the session folder, and explains a terminal that cannot start', async () => {
    const settingsFile = join(dir, 'terminal.json');
    const ok = fakeSpawn('spawn');
    const launcher = new TerminalLauncher({ settingsFile, platform: 'linux', spawn: ok.spawn });
    await launcher.setSetting('myterm -d {cwd} -- {command}');
    expect(await launcher.launch('/work/app', ID, false)).toEqual({
      command: `claude --resume ${ID}`,
      cwd: '/work/app',
      terminal: 'myterm',
    });
    expect(ok.calls).toEqual([
      { command: 'myterm', args: ['-d', '/work/app', '--', `claude --resume ${ID}`], cwd: '/work/app', detached: true },
    ]);

    const failing = new TerminalLauncher({ settingsFile, platform: 'linux', spawn: fakeSpawn('error').spawn });
    await expect(failing.launch('/work/app', ID, true)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('Cannot start the terminal "myterm" (ENOENT)'),
    });
  });
});
