import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatchRequest } from '../../../shared/contract/dispatch';
import { readBackgroundSettings } from '../../../electron/core/settings/backgroundSettingsFile';
import { createJobWorld, type JobWorld } from './jobWorld';

describe('background job settings', () => {
  let world: JobWorld;
  beforeEach(async () => {
    world = await createJobWorld();
  });
  afterEach(async () => {
    await world.cleanup();
  });

  it('are kept in the app data folder beside the model settings, per project or for all', async () => {
    const { handlers } = world.engine;
    await dispatchRequest(handlers, 'updateLlmSettings', { model: 'claude-opus-4-1' }, { readOnly: false });
    const on = await dispatchRequest(
      handlers,
      'updateBackgroundSettings',
      { project: { ...world.ref, reviewedDreams: true } },
      { readOnly: false },
    );
    expect(on).toMatchObject({
      ok: true,
      value: { settings: { reviewedDreams: { mode: 'chosen', projects: [world.ref] } }, active: false },
    });
    const all = await dispatchRequest(handlers, 'updateBackgroundSettings', { reviewedDreams: { mode: 'all' } }, { readOnly: false });
    expect(all).toMatchObject({ ok: true, value: { settings: { reviewedDreams: { mode: 'all', projects: [world.ref] } } } });
    await dispatchRequest(
      handlers,
      'updateBackgroundSettings',
      { autoExtraction: { enabled: true, minPrompts: 3 }, dailyTokenBudget: 200_000 },
      { readOnly: false },
    );
    const file = JSON.parse(await readFile(join(world.dataDir, 'settings.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(file.llm.model).toBe('claude-opus-4-1');
    expect(file.background).toMatchObject({
      reviewedDreams: { mode: 'all' },
      autoExtraction: { enabled: true, minPrompts: 3 },
      dailyTokenBudget: 200_000,
    });
    expect(typeof (file.background.autoExtraction as { since: unknown }).since).toBe('string');
    // Off again forgets when it was turned on: turning it on later starts from then.
    await dispatchRequest(handlers, 'updateBackgroundSettings', { autoExtraction: { enabled: false } }, { readOnly: false });
    expect((await readBackgroundSettings(world.dataDir)).autoExtraction).toEqual({ enabled: false, minPrompts: 3, since: null });
  });

  it('refuses bad input and a read-only window, and reads a damaged file as the defaults', async () => {
    const { handlers } = world.engine;
    for (const args of [
      { dailyTokenBudget: 5 },
      { dailyTokenBudget: 1.5e9 },
      { autoExtraction: { minPrompts: 0 } },
      { reviewedDreams: { mode: 'some' } },
      { project: { configRoot: world.ref.configRoot, slug: '../x', reviewedDreams: true } },
      { unknown: true },
    ]) {
      expect(await dispatchRequest(handlers, 'updateBackgroundSettings', args, { readOnly: false })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_INPUT' },
      });
    }
    expect(
      await dispatchRequest(handlers, 'updateBackgroundSettings', { reviewedDreams: { mode: 'all' } }, { readOnly: true }),
    ).toMatchObject({
      ok: false,
      error: { code: 'READ_ONLY' },
    });
    await mkdir(world.dataDir, { recursive: true });
    await writeFile(
      join(world.dataDir, 'settings.json'),
      JSON.stringify({ background: { reviewedDreams: { mode: 7 }, dailyTokenBudget: 'lots', autoExtraction: { enabled: true } } }),
    );
    // Turned on without a start time is not on: it could replay every session ever.
    expect(await readBackgroundSettings(world.dataDir)).toEqual({
      reviewedDreams: { mode: 'off', projects: [] },
      autoExtraction: { enabled: false, minPrompts: 5, since: null },
      dailyTokenBudget: 1_000_000,
      autoDreamTurnedOff: [],
    });
  });
});
