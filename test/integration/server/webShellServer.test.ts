import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createEngine, type Engine } from '../../../electron/core/engine';
import { tokenCookieName } from '../../../electron/server/requestAuth';
import { WebShellServer, type ServingAddress } from '../../../electron/server/WebShellServer';
import { createStandardScenario, type StandardScenario } from '../../fixtures/scenarioHome';

interface HttpAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function openSocket(port: number, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}

function call(
  ws: WebSocket,
  id: number,
  method: string,
  args: unknown,
): Promise<{ id: number; result: { ok: boolean; value?: unknown; error?: { code: string } } }> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { id?: number };
      if (message.id === id) {
        ws.off('message', onMessage);
        resolve(message as never);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, method, args }));
  });
}

describe('web shell server', () => {
  let scenario: StandardScenario;
  let server: WebShellServer;
  let address: ServingAddress;
  const token = 'test-token-0123456789';
  let cookie: string;
  let engine: Engine;

  beforeAll(async () => {
    scenario = await createStandardScenario();
    const staticDir = mkdtempSync(join(tmpdir(), 'ccmem-static-'));
    mkdirSync(join(staticDir, 'assets'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
    engine = await createEngine({
      roots: [{ path: scenario.home.root, source: 'CLAUDE_CONFIG_DIR' }],
      dataDir: join(scenario.home.tmp, 'data'),
      demoHomeSource: null,
      shell: 'web',
      readOnly: true,
      watch: false,
    });
    server = new WebShellServer({
      handlers: engine.handlers,
      subscribe: (sink) => engine.subscribe(sink),
      staticDir,
      token,
      host: '127.0.0.1',
      port: 0,
      readOnly: true,
    });
    address = await server.start();
    cookie = `${tokenCookieName(address.port)}=${token}`;
  });

  afterAll(async () => {
    await server.close();
    await engine.dispose();
    await scenario.home.cleanup();
  });

  it('prints a loopback URL carrying the token', () => {
    expect(address.url).toBe(`http://127.0.0.1:${address.port}/?token=${token}`);
  });

  it('refuses pages without the token, or with a wrong one', async () => {
    expect((await get(address.port, '/')).status).toBe(401);
    expect((await get(address.port, '/?token=wrong')).status).toBe(401);
    expect((await get(address.port, '/', { cookie: `${tokenCookieName(address.port)}=wrong` })).status).toBe(401);
  });

  it('trades the token in the URL for an HttpOnly cookie and serves the app with a strict CSP', async () => {
    const first = await get(address.port, `/?token=${token}`);
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe('/');
    expect(String(first.headers['set-cookie'])).toContain(`${cookie}; HttpOnly; SameSite=Strict`);
    const page = await get(address.port, '/', { cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>app</title>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await get(address.port, '/assets/app.js', { cookie })).body).toBe('console.log(1)');
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin even with the token', async () => {
    expect((await get(address.port, '/', { cookie, host: `evil.example:${address.port}` })).status).toBe(403);
    expect((await get(address.port, '/', { cookie, host: `127.0.0.1:1` })).status).toBe(403);
    expect((await get(address.port, '/', { cookie, origin: 'http://evil.example' })).status).toBe(403);
  });

  it('never serves files outside the built renderer', async () => {
    expect((await get(address.port, '/../../../../etc/passwd', { cookie })).body).not.toContain('root:');
    expect((await get(address.port, '/%2e%2e/%2e%2e/etc/passwd', { cookie })).body).not.toContain('root:');
    expect((await get(address.port, '/assets/missing.js', { cookie })).status).toBe(404);
  });

  it('refuses a WebSocket without the token or from another origin', async () => {
    await expect(openSocket(address.port, {})).rejects.toThrow('401');
    await expect(openSocket(address.port, { cookie, origin: 'http://evil.example' })).rejects.toThrow('403');
  });

  it('answers contract requests over the WebSocket with Result envelopes', async () => {
    const ws = await openSocket(address.port, { cookie, origin: `http://127.0.0.1:${address.port}` });
    try {
      const home = await call(ws, 1, 'getHome', {});
      expect(home.result.ok).toBe(true);
      const projects = (home.result.value as { projects: { slug: string; path: string | null }[] }).projects;
      expect(projects.map((p) => p.slug).sort()).toEqual(
        [scenario.webshop.slug, scenario.monorepo.sessionSlug, scenario.monorepo.memorySlug, scenario.windows.slug].sort(),
      );
      const unknown = await call(ws, 2, 'deleteEverything', {});
      expect(unknown.result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      const badArgs = await call(ws, 3, 'listSessions', { configRoot: scenario.home.root, slug: '../../etc' });
      expect(badArgs.result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      const missing = await call(ws, 4, 'listSessions', { configRoot: scenario.home.root, slug: 'no-such-project' });
      expect(missing.result).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
      const sessions = await call(ws, 5, 'listSessions', { configRoot: scenario.home.root, slug: scenario.webshop.slug });
      expect((sessions.result.value as unknown[]).length).toBe(scenario.webshop.sessions.length);
    } finally {
      ws.close();
    }
  });

  it('carries a backup archive of several megabytes both ways', async () => {
    // Random base64 barely compresses: the archive, and the request carrying it, are well over 1 MiB.
    writeFileSync(join(scenario.webshop.memoryDir, 'big-notes.md'), `# Notes\n${randomBytes(1_500_000).toString('base64')}\n`);
    const ws = await openSocket(address.port, { cookie, origin: `http://127.0.0.1:${address.port}` });
    try {
      const folder = { kind: 'project', configRoot: scenario.home.root, slug: scenario.webshop.slug };
      const exported = await call(ws, 1, 'exportMemoryBackup', { folder, asOf: null });
      expect(exported.result.ok).toBe(true);
      const archive = (exported.result.value as { base64: string }).base64;
      expect(archive.length).toBeGreaterThan(1.5 * 1024 * 1024);
      const preview = await call(ws, 2, 'previewMemoryImport', { folder, archive });
      expect(preview.result.ok).toBe(true);
      const files = (preview.result.value as { files: { path: string; status: string }[] }).files;
      expect(files.find((file) => file.path === 'big-notes.md')?.status).toBe('same');
    } finally {
      ws.close();
    }
  });
});
