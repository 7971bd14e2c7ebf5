import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchRequest } from '../../../shared/contract/dispatch';
import type { BackgroundStatus } from '../../../shared/jobs/backgroundJobs';
import { runCli } from '../../../electron/cli/main';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { textTurn } from '../../helpers/fakeAnthropicServer';
import { createJobWorld, TEST_API_KEY, type JobWorld } from './jobWorld';

const ORIGINAL = '{\n    "model": "opus",\n    "autoDreamEnabled": true,\n    "env": {\n        "FOO": "1"\n    }\n}\n';

describe("turning Claude Code's own auto-dream off", () => {
  let world: JobWorld;
  afterEach(async () => {
    await world.cleanup();
  });

  function settingsPath(): string {
    return join(world.home.root, 'settings.json');
  }

  async function turnOff(readOnly = false, configRoot = world.home.root) {
    return dispatchRequest(world.engine.handlers, 'turnOffClaudeCodeAutoDream', { configRoot }, { readOnly });
  }

  it('is one history-recorded write of settings.json that keeps every other key, and a revert undoes it byte for byte', async () => {
    world = await createJobWorld();
    await fs.writeFile(settingsPath(), ORIGINAL);
    const before = await snapshotTree(world.home.root);
    const offered = (await world.engine.background.status()).claudeCodeAutoDream;
    expect(offered).toEqual([{ configRoot: world.home.root, autoDreamEnabled: true, cannotChange: null, turnedOffByApp: null }]);

    const result = await turnOff();
    expect(result.ok).toBe(true);
    const status = (result as { value: BackgroundStatus }).value;
    const record = status.settings.autoDreamTurnedOff[0];
    expect(status.claudeCodeAutoDream).toEqual([
      { configRoot: world.home.root, autoDreamEnabled: false, cannotChange: null, turnedOffByApp: record },
    ]);
    expect(await fs.readFile(settingsPath(), 'utf8')).toBe(
      '{\n    "model": "opus",\n    "autoDreamEnabled": false,\n    "env": {\n        "FOO": "1"\n    }\n}\n',
    );
    // Nothing else under the config root changed.
    const after = await snapshotTree(world.home.root);
    after.delete('settings.json');
    before.delete('settings.json');
    expect(after).toEqual(before);
    // History holds it as one app edit of the config root, with the old version.
    const journal = (await fs.readFile(join(world.dataDir, 'history', 'journal.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { changeSetId: string; folder: string; path: string; cause: string });
    expect(journal.filter((entry) => entry.changeSetId === record.changeSetId)).toMatchObject([
      { folder: world.home.root, path: 'settings.json', cause: 'app-edit' },
    ]);
    // A second time changes nothing.
    await turnOff();
    expect((await world.engine.background.status()).settings.autoDreamTurnedOff).toEqual([record]);

    const undo = await dispatchRequest(world.engine.handlers, 'revertChangeSet', { id: record.changeSetId }, { readOnly: false });
    expect(undo).toMatchObject({ ok: true, value: { applied: true } });
    expect(await fs.readFile(settingsPath(), 'utf8')).toBe(ORIGINAL);
    expect((await world.engine.background.status()).claudeCodeAutoDream[0]).toMatchObject({ autoDreamEnabled: true, turnedOffByApp: null });
  });

  it('creates the file when there is none, and refuses a broken file, a symlink, a read-only window and an unknown folder', async () => {
    world = await createJobWorld();
    expect(await turnOff()).toMatchObject({ ok: true });
    expect(JSON.parse(await fs.readFile(settingsPath(), 'utf8'))).toEqual({ autoDreamEnabled: false });

    await fs.writeFile(settingsPath(), '{ "model": "opus", ');
    expect(await turnOff()).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await fs.readFile(settingsPath(), 'utf8')).toBe('{ "model": "opus", ');

    const elsewhere = join(world.home.tmp, 'dotfiles-settings.json');
    await fs.writeFile(elsewhere, ORIGINAL);
    await fs.rm(settingsPath());
    await fs.symlink(elsewhere, settingsPath());
    expect(await turnOff()).toMatchObject({ ok: false });
    expect(await fs.readFile(elsewhere, 'utf8')).toBe(ORIGINAL);
    expect((await fs.lstat(settingsPath())).isSymbolicLink()).toBe(true);

    expect(await turnOff(true)).toMatchObject({ ok: false, error: { code: 'READ_ONLY' } });
    expect(await turnOff(false, world.home.tmp)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    await expect(fs.stat(join(world.home.tmp, 'settings.json'))).rejects.toThrow();
  });

  it('keeps reviewed dreams running where the app turned it off, but not where the user did', async () => {
    world = await createJobWorld();
    const ccmem = async (...argv: string[]) => {
      let stdout = '';
      const code = await runCli(argv, {
        stdout: (text) => (stdout += text),
        stderr: () => undefined,
        env: {
          CLAUDE_CONFIG_DIR: world.home.root,
          CCMEM_DATA_DIR: world.dataDir,
          ANTHROPIC_API_KEY: TEST_API_KEY,
          ANTHROPIC_BASE_URL: world.fake.url,
          HOME: world.home.tmp,
        },
      });
      return { code, outputs: JSON.parse(stdout) as unknown[] };
    };
    // The user's own "off": no reviewed dream either.
    await fs.writeFile(settingsPath(), '{ "autoDreamEnabled": false }\n');
    expect(await ccmem('dream', '--due', '--json')).toEqual({ code: 0, outputs: [] });
    expect(world.fake.requests).toEqual([]);

    // Turned off through the app (from "on"): reviewed dreams take Claude Code's place.
    await fs.writeFile(settingsPath(), '{ "autoDreamEnabled": true }\n');
    expect(await turnOff()).toMatchObject({ ok: true });
    world.fake.enqueue(textTurn('Nothing to change.'));
    const due = await ccmem('dream', '--due', '--json');
    expect(due.code).toBe(0);
    expect(due.outputs).toHaveLength(1);
  });
});
