import { mkdtempSync, realpathSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { llmEnvironmentFrom, LlmSettingsService } from '../../../electron/core/settings/LlmSettingsService';
import { SessionSecretStore } from '../../../electron/core/settings/secretStore';
import { errorResponse, startFakeAnthropicServer, textTurn, type FakeAnthropicServer } from '../../helpers/fakeAnthropicServer';

const TYPED_KEY = 'sk-ant-api03-typed-key-abcdefghijklmnop';
const ENV_KEY = 'sk-ant-api03-env-key-abcdefghijklmnop';

describe('LLM settings', () => {
  let dataDir: string;
  let fake: FakeAnthropicServer;
  beforeEach(async () => {
    dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-llm-settings-')));
    fake = await startFakeAnthropicServer();
  });
  afterEach(async () => {
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('default to a current Sonnet, the environment base URL and a cap; changes are saved without the key', async () => {
    const service = new LlmSettingsService(
      dataDir,
      new SessionSecretStore(),
      llmEnvironmentFrom({ ANTHROPIC_BASE_URL: fake.url }, { useApiKey: true }),
    );
    expect(await service.getView()).toEqual({
      model: 'claude-sonnet-4-6',
      baseUrl: null,
      effectiveBaseUrl: fake.url,
      baseUrlSource: 'environment',
      baseUrlEditable: false,
      maxCostUsdPerJob: 2,
      keySource: 'none',
      keyPersistence: 'session',
      backend: 'auto',
      effectiveBackend: null,
      claudePath: null,
      claudeCode: {
        found: false,
        message: 'No claude on the PATH; install Claude Code or give its path in Settings (or CCMEM_CLAUDE_PATH)',
      },
    });
    await service.setApiKey(TYPED_KEY);
    const view = await service.update({ model: 'claude-haiku-4-5', maxCostUsdPerJob: 0.5 });
    expect(view).toMatchObject({ model: 'claude-haiku-4-5', effectiveBaseUrl: fake.url, keySource: 'session' });
    expect(JSON.stringify(view)).not.toContain(TYPED_KEY);
    const file = await readFile(join(dataDir, 'settings.json'), 'utf8');
    expect(JSON.parse(file)).toEqual({
      llm: { model: 'claude-haiku-4-5', baseUrl: null, maxCostUsdPerJob: 0.5, backend: 'auto', claudePath: null },
    });
    expect(file).not.toContain(TYPED_KEY);
  });

  it('saves a base URL in the desktop app only, and never lets it override ANTHROPIC_BASE_URL', async () => {
    const cli = new LlmSettingsService(dataDir, new SessionSecretStore(), llmEnvironmentFrom({}, { useApiKey: true }));
    await expect(cli.update({ baseUrl: 'https://proxy.example.com' })).rejects.toMatchObject({ code: 'FORBIDDEN' });

    const desktop = new LlmSettingsService(
      dataDir,
      new SessionSecretStore(),
      llmEnvironmentFrom({}, { useApiKey: false, useSavedBaseUrl: true }),
    );
    expect(await desktop.update({ baseUrl: 'https://proxy.example.com/anthropic/' })).toMatchObject({
      baseUrl: 'https://proxy.example.com/anthropic',
      effectiveBaseUrl: 'https://proxy.example.com/anthropic',
      baseUrlSource: 'settings',
      baseUrlEditable: true,
    });
    // The same saved file, read by the CLI, sends nothing there.
    expect(await cli.getView()).toMatchObject({ effectiveBaseUrl: 'https://api.anthropic.com', baseUrlSource: 'default' });

    const overridden = new LlmSettingsService(
      dataDir,
      new SessionSecretStore(),
      llmEnvironmentFrom({ ANTHROPIC_BASE_URL: fake.url }, { useApiKey: false, useSavedBaseUrl: true }),
    );
    expect(await overridden.getView()).toMatchObject({
      baseUrl: 'https://proxy.example.com/anthropic',
      effectiveBaseUrl: fake.url,
      baseUrlSource: 'environment',
    });
  });

  it('keeps other keys of settings.json and survives a broken file', async () => {
    await writeFile(join(dataDir, 'settings.json'), '{"other": {"x": 1}}');
    const service = new LlmSettingsService(dataDir, new SessionSecretStore(), llmEnvironmentFrom({}, { useApiKey: true }));
    await service.update({ maxCostUsdPerJob: 3 });
    expect(JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({
      other: { x: 1 },
      llm: { maxCostUsdPerJob: 3 },
    });
    await writeFile(join(dataDir, 'settings.json'), '{broken');
    expect((await service.getView()).maxCostUsdPerJob).toBe(2);
  });

  it('refuses a bad base URL, plain http beyond this machine, and a key with spaces', async () => {
    const service = new LlmSettingsService(
      dataDir,
      new SessionSecretStore(),
      llmEnvironmentFrom({}, { useApiKey: false, useSavedBaseUrl: true }),
    );
    for (const bad of [
      'ftp://example.com',
      'https://user:pass@example.com',
      'http://proxy.example.com',
      'http://10.0.0.5:8080',
      'not a url',
    ]) {
      await expect(service.update({ baseUrl: bad }), bad).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    }
    for (const local of ['http://127.0.0.1:8080', 'http://localhost:4000/v1', 'http://[::1]:9000']) {
      expect((await service.update({ baseUrl: local })).baseUrlSource, local).toBe('settings');
    }
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ llm: { baseUrl: 'http://evil.example' } }));
    expect(await service.getView()).toMatchObject({ baseUrl: null, baseUrlSource: 'default' });
    await expect(service.setApiKey('sk ant')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('uses a typed key before ANTHROPIC_API_KEY, and the desktop ignores the environment key', async () => {
    const secrets = new SessionSecretStore();
    const service = new LlmSettingsService(
      dataDir,
      secrets,
      llmEnvironmentFrom({ ANTHROPIC_API_KEY: ENV_KEY, ANTHROPIC_BASE_URL: fake.url }, { useApiKey: true }),
    );
    expect((await service.getView()).keySource).toBe('environment');
    fake.enqueue(textTurn('OK'), textTurn('OK'));
    expect(await service.testConnection()).toMatchObject({ ok: true, model: 'claude-sonnet-4-6', message: `Connected to ${fake.url}` });
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${ENV_KEY}`);
    await service.setApiKey(TYPED_KEY);
    await service.testConnection();
    expect(fake.requests[1].headers.authorization).toBe(`Bearer ${TYPED_KEY}`);
    await service.clearApiKey();
    expect((await service.getView()).keySource).toBe('environment');

    const desktop = new LlmSettingsService(
      dataDir,
      new SessionSecretStore(),
      llmEnvironmentFrom({ ANTHROPIC_API_KEY: ENV_KEY }, { useApiKey: false }),
    );
    expect((await desktop.getView()).keySource).toBe('none');
    await expect(desktop.openSession()).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message:
        'No Anthropic API key and no Claude Code: set ANTHROPIC_API_KEY or enter a key in Settings, or install Claude Code and log in',
    });
  });

  it('reports a refused key from the connection test without throwing', async () => {
    const service = new LlmSettingsService(
      dataDir,
      new SessionSecretStore(),
      llmEnvironmentFrom({ ANTHROPIC_API_KEY: ENV_KEY, ANTHROPIC_BASE_URL: fake.url, CCMEM_LLM_MAX_RETRIES: '0' }, { useApiKey: true }),
    );
    fake.enqueue(errorResponse(401, 'invalid x-api-key'));
    const result = await service.testConnection();
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/The API key was refused \(401\)/);
    expect(result.message).not.toContain(ENV_KEY);
  });

  /** A stand-in `claude` that reports a version and a login, as Settings asks it to. */
  async function fakeClaude(dir: string, version: string, loggedIn: boolean): Promise<string> {
    await mkdir(dir, { recursive: true });
    const path = join(dir, 'claude');
    const status = JSON.stringify({ loggedIn, authMethod: loggedIn ? 'claude.ai' : 'none', apiProvider: 'firstParty' });
    await writeFile(
      path,
      `#!/bin/sh\n[ "$1" = "--version" ] && { echo "${version} (Claude Code)"; exit 0; }\n[ "$1" = "auth" ] && { echo '${status}'; exit ${loggedIn ? 0 : 1}; }\nexit 1\n`,
    );
    await chmod(path, 0o755);
    return path;
  }

  it('finds claude in CCMEM_CLAUDE_PATH, then the path in Settings, then the PATH, and chooses it when there is no key', async () => {
    const onPath = await fakeClaude(join(dataDir, 'path-bin'), '2.1.300', true);
    const inSettings = await fakeClaude(join(dataDir, 'settings-bin'), '2.1.310', false);
    const named = await fakeClaude(join(dataDir, 'env-bin'), '2.1.328', true);
    const env = { PATH: join(dataDir, 'path-bin') };
    const service = new LlmSettingsService(dataDir, new SessionSecretStore(), llmEnvironmentFrom(env, { useApiKey: true }));
    expect(await service.getView()).toMatchObject({
      backend: 'auto',
      effectiveBackend: 'claude-code',
      claudeCode: { found: true, path: onPath, source: 'path', version: '2.1.300', loggedIn: true, billing: 'subscription', problem: null },
    });
    await expect(service.update({ claudePath: 'bin/claude' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect((await service.update({ claudePath: inSettings })).claudeCode).toMatchObject({
      path: inSettings,
      source: 'settings',
      version: '2.1.310',
      loggedIn: false,
    });
    await expect(service.openSession()).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('not logged in') });
    const withEnv = new LlmSettingsService(
      dataDir,
      new SessionSecretStore(),
      llmEnvironmentFrom({ ...env, CCMEM_CLAUDE_PATH: named }, { useApiKey: true }),
    );
    expect((await withEnv.getView()).claudeCode).toMatchObject({ path: named, source: 'environment', version: '2.1.328' });
    const session = await withEnv.openSession();
    expect(session).toMatchObject({ backend: 'claude-code', claude: { path: named, version: '2.1.328', billing: 'subscription' } });
    // A key, when there is one, comes first; the choice in Settings overrides both ways.
    await withEnv.setApiKey(TYPED_KEY);
    expect((await withEnv.getView()).effectiveBackend).toBe('api');
    expect((await withEnv.update({ backend: 'claude-code' })).effectiveBackend).toBe('claude-code');
    expect(JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({
      llm: { backend: 'claude-code', claudePath: inSettings },
    });
    const missing = new LlmSettingsService(
      dataDir,
      new SessionSecretStore(),
      llmEnvironmentFrom({ CCMEM_CLAUDE_PATH: join(dataDir, 'nowhere', 'claude') }, { useApiKey: true }),
    );
    expect((await missing.getView()).claudeCode).toEqual({
      found: false,
      message: `CCMEM_CLAUDE_PATH names ${join(dataDir, 'nowhere', 'claude')}, which is not an executable file`,
    });
    // Probes run in a private folder of the app data, and leave nothing there.
    expect(await readdir(join(dataDir, 'claude-code-runs'))).toEqual([]);
  });
});
