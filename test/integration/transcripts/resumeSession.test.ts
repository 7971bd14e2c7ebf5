import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptRequestHandlers } from '../../../electron/core/transcripts/transcriptRequestHandlers';
import { TranscriptService } from '../../../electron/core/transcripts/TranscriptService';
import { resumeRequestHandlers, TerminalLauncher, type SpawnFunction } from '../../../electron/main/terminalLauncher';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { createTestHomeService } from '../../fixtures/testEngine';

describe('resuming a session', () => {
  let home: ScenarioHome;
  let service: TranscriptService;
  let here: { configRoot: string; slug: string; sessionId: string };
  let gone: { configRoot: string; slug: string; sessionId: string };
  const started: { command: string; args: readonly string[]; cwd: unknown }[] = [];
  const spawn: SpawnFunction = (command, args, options) => {
    started.push({ command, args, cwd: options.cwd });
    const child = Object.assign(new EventEmitter(), { unref: () => undefined }) as unknown as ChildProcess;
    setImmediate(() => child.emit('spawn'));
    return child;
  };

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-resume-' });
    const local = home.project(home.workPath('app'));
    const windows = home.project('C:\\Users\\dev\\tool');
    here = { configRoot: home.root, slug: local.slug, sessionId: (await local.session({ turns: 1 })).sessionId };
    gone = { configRoot: home.root, slug: windows.slug, sessionId: (await windows.session({ turns: 1 })).sessionId };
    service = new TranscriptService(createTestHomeService(home, { shell: 'electron' }), null);
  });

  afterAll(async () => {
    service.dispose();
    await home.cleanup();
  });

  it('opens the terminal in the session folder from the desktop shell, with --fork-session for a fork', async () => {
    const handlers = resumeRequestHandlers(
      new TerminalLauncher({ settingsFile: join(home.tmp, 'data', 'terminal.json'), platform: 'linux', spawn }),
      service,
    );
    const launched = await handlers.resumeSession({ ...here, fork: true });
    expect(launched).toEqual({
      command: `claude --resume ${here.sessionId} --fork-session`,
      cwd: home.workPath('app'),
      terminal: 'x-terminal-emulator',
    });
    expect(started.at(-1)?.cwd).toBe(home.workPath('app'));
    expect(started.at(-1)?.args.at(-1)).toBe(
      `cd '${home.workPath('app')}' && claude --resume ${here.sessionId} --fork-session; exec "\${SHELL:-sh}"`,
    );
  });

  it('says when the session folder no longer exists and hands over the command to copy', async () => {
    const handlers = resumeRequestHandlers(
      new TerminalLauncher({ settingsFile: join(home.tmp, 'data', 'terminal.json'), platform: 'linux', spawn }),
      service,
    );
    const count = started.length;
    await expect(handlers.resumeSession({ ...gone, fork: false })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('C:\\Users\\dev\\tool no longer exists'),
      details: { command: `cd 'C:\\Users\\dev\\tool'; claude --resume ${gone.sessionId}` },
    });
    expect(started).toHaveLength(count);
  });

  it('is refused by the engine (the web shell) with the command to copy instead', async () => {
    const handlers = transcriptRequestHandlers(service);
    await expect(handlers.resumeSession({ ...here, fork: false })).rejects.toMatchObject({
      code: 'UNSUPPORTED',
      details: { command: `cd '${home.workPath('app')}' && claude --resume ${here.sessionId}` },
    });
    await expect(handlers.getTerminalSetting({})).rejects.toMatchObject({ code: 'UNSUPPORTED' });
  });
});
