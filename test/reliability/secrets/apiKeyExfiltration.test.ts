import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Engine } from '../../../electron/core/engine';
import { llmEnvironmentFrom } from '../../../electron/core/settings/LlmSettingsService';
import { SessionSecretStore } from '../../../electron/core/settings/secretStore';
import { WebShellServer } from '../../../electron/server/WebShellServer';
import { startFakeAnthropicServer, textTurn, type FakeAnthropicServer } from '../../helpers/fakeAnthropicServer';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { recordFigure } from '../support/figureLog';
import { createTestEngine } from '../../fixtures/testEngine';

const KEY = 'sk-ant-api03-exfiltration-canary-0123456789abcdefghij';
const TYPED_KEY = 'sk-ant-api03-typed-in-the-web-shell-0123456789abcdef';
const TOKEN = 'exfiltration-token-0123456789';

/** Requests that reached the foreign host with one of our keys anywhere in them. */
function keysArrived(foreign: FakeAnthropicServer): number {
  return foreign.requests.filter((request) => {
    const text = `${JSON.stringify(request.headers)}\n${request.rawBody}`;
    return text.includes(KEY) || text.includes(TYPED_KEY);
  }).length;
}

/** A client of a web shell, as anyone holding its token could be. */
async function tokenHolder(port: number): Promise<{ call: (method: string, args: unknown) => Promise<unknown>; close: () => void }> {
  // A script holding the token, as an attacker would use it: a bearer header, no browser.
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { authorization: `Bearer ${TOKEN}` } });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let nextId = 1;
  return {
    call: (method, args) =>
      new Promise((resolve) => {
        const id = nextId++;
        const onMessage = (data: Buffer) => {
          const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
          if (message.id !== id) return;
          ws.off('message', onMessage);
          resolve(message.result);
        };
        ws.on('message', onMessage);
        ws.send(JSON.stringify({ id, method, args }));
      }),
    close: () => ws.close(),
  };
}

describe('the API key never goes to a host the user did not choose', () => {
  let scenario: StandardScenario;
  /** Where requests are meant to go (ANTHROPIC_BASE_URL). */
  let legit: FakeAnthropicServer;
  /** The attacker's server: it answers like the API and keeps whatever arrives. */
  let foreign: FakeAnthropicServer;
  let attempts = 0;

  beforeAll(async () => {
    scenario = await createStandardScenario();
    legit = await startFakeAnthropicServer();
    foreign = await startFakeAnthropicServer();
  });

  afterAll(async () => {
    recordFigure('keysSentAbroad', { keys: keysArrived(foreign), attempts });
    await legit.close();
    await foreign.close();
    await scenario.home.cleanup();
  });

  async function engineFor(shell: 'web' | 'cli' | 'electron', env: NodeJS.ProcessEnv, dataDir: string): Promise<Engine> {
    return createTestEngine(scenario.home, {
      dataDir,
      shell,
      llm: {
        secrets: new SessionSecretStore(),
        environment: llmEnvironmentFrom(
          { ...env, CCMEM_LLM_MAX_RETRIES: '0' },
          { useApiKey: shell !== 'electron', useSavedBaseUrl: shell === 'electron' },
        ),
      },
    });
  }

  it('refuses a web shell token holder who points the base URL at their own server, then tests the connection', async () => {
    const dataDir = join(scenario.home.tmp, 'data-web');
    const engine = await engineFor('web', { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: legit.url }, dataDir);
    const staticDir = mkdtempSync(join(tmpdir(), 'ccmem-static-'));
    mkdirSync(join(staticDir, 'assets'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
    const server = new WebShellServer({
      handlers: engine.handlers,
      subscribe: (sink) => engine.subscribe(sink),
      staticDir,
      token: TOKEN,
      host: '127.0.0.1',
      port: 0,
      readOnly: false,
    });
    const { port } = await server.start();
    const attacker = await tokenHolder(port);
    try {
      for (const patch of [
        { baseUrl: foreign.url },
        { baseUrl: `${foreign.url}/v1/` },
        { model: 'claude-haiku-4-5', baseUrl: foreign.url, maxCostUsdPerJob: 1 },
        { baseUrl: `http://localhost:${new URL(foreign.url).port}` },
        { baseUrl: null },
      ]) {
        attempts++;
        expect(await attacker.call('updateLlmSettings', patch)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
        legit.enqueue(textTurn('OK'));
        expect(await attacker.call('testLlmConnection', {})).toMatchObject({ ok: true, value: { ok: true } });
      }
      // A key typed into the web shell goes where ANTHROPIC_BASE_URL says too.
      attempts++;
      expect(await attacker.call('setApiKey', { key: TYPED_KEY })).toMatchObject({ ok: true });
      legit.enqueue(textTurn('OK'));
      expect(await attacker.call('testLlmConnection', {})).toMatchObject({ ok: true, value: { ok: true } });
      expect(await attacker.call('getLlmSettings', {})).toMatchObject({
        ok: true,
        value: { effectiveBaseUrl: legit.url, baseUrlSource: 'environment', baseUrlEditable: false },
      });
    } finally {
      attacker.close();
      await server.close();
      await engine.dispose();
      rmSync(staticDir, { recursive: true, force: true });
    }
    expect(keysArrived(foreign)).toBe(0);
    expect(legit.requests.length).toBeGreaterThan(0);
  });

  it('ignores a base URL planted in the settings file by later CLI runs, and never lets it override ANTHROPIC_BASE_URL', async () => {
    const dataDir = join(scenario.home.tmp, 'data-planted');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ llm: { baseUrl: foreign.url } }));

    // A later `ccmem dream`: the key from the environment goes only where the environment says.
    for (const env of [{ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: legit.url }, { ANTHROPIC_API_KEY: KEY }]) {
      attempts++;
      const cli = await engineFor('cli', env, dataDir);
      try {
        const session = await cli.llmSettings.openSession('api');
        if (session.backend !== 'api') throw new Error('the API backend was asked for');
        expect(session.client.baseUrl).not.toBe(foreign.url);
        if (env.ANTHROPIC_BASE_URL) {
          legit.enqueue(textTurn('OK'));
          expect(await cli.llmSettings.testConnection()).toMatchObject({ ok: true });
        } else expect(session.client.baseUrl).toBe('https://api.anthropic.com');
      } finally {
        await cli.dispose();
      }
    }

    // The desktop app uses a saved base URL, but ANTHROPIC_BASE_URL still wins.
    attempts++;
    const desktop = await engineFor('electron', { ANTHROPIC_BASE_URL: legit.url }, dataDir);
    try {
      await desktop.llmSettings.setApiKey(KEY);
      legit.enqueue(textTurn('OK'));
      expect(await desktop.llmSettings.testConnection()).toMatchObject({ ok: true });
    } finally {
      await desktop.dispose();
    }

    // Plain http to another machine is never used, even by the desktop app.
    attempts++;
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ llm: { baseUrl: 'http://attacker.example' } }));
    const plain = await engineFor('electron', {}, dataDir);
    try {
      expect(await plain.llmSettings.getView()).toMatchObject({ baseUrl: null, effectiveBaseUrl: 'https://api.anthropic.com' });
      await expect(plain.llmSettings.update({ baseUrl: 'http://attacker.example' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    } finally {
      await plain.dispose();
    }
    expect(keysArrived(foreign)).toBe(0);
  });
});
