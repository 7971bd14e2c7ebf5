import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Engine } from '../../../electron/core/engine';
import { WebShellServer, type ServingAddress } from '../../../electron/server/WebShellServer';
import { ACCESS_CHECK_PATH, TOKEN_PROTOCOL_PREFIX, WIRE_PROTOCOL } from '../../../shared/contract/webShellAccess';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { createTestEngine } from '../../fixtures/testEngine';

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

function openSocket(port: number, headers: Record<string, string>, protocols: readonly string[] = []): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, [...protocols], { headers });
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
  /** What the page offers: the wire protocol and the token. */
  const pageProtocols = [WIRE_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`];
  let origin: string;
  let engine: Engine;

  beforeAll(async () => {
    scenario = await createStandardScenario();
    const staticDir = mkdtempSync(join(tmpdir(), 'ccmem-static-'));
    mkdirSync(join(staticDir, 'assets'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
    engine = await createTestEngine(scenario.home, { shell: 'web', readOnly: true });
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
    origin = `http://127.0.0.1:${address.port}`;
  });

  afterAll(async () => {
    await server.close();
    await engine.dispose();
    await scenario.home.cleanup();
  });

  it('prints a loopback URL carrying the token', () => {
    expect(address.url).toBe(`http://127.0.0.1:${address.port}/?token=${token}`);
  });

  it('serves the page, which holds no data, without the token, with a strict CSP, and never a cookie or a redirect', async () => {
    for (const path of ['/', `/?token=${token}`, '/?token=wrong', '/sessions/deep/link']) {
      const page = await get(address.port, path);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<title>app</title>');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['set-cookie']).toBeUndefined();
      expect(page.headers.location).toBeUndefined();
    }
    expect((await get(address.port, '/assets/app.js')).body).toBe('console.log(1)');
  });

  it('answers the access check only to the right bearer token', async () => {
    expect((await get(address.port, ACCESS_CHECK_PATH, { authorization: `Bearer ${token}` })).status).toBe(204);
    expect((await get(address.port, ACCESS_CHECK_PATH, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await get(address.port, `${ACCESS_CHECK_PATH}?token=${token}`)).status).toBe(401);
    expect((await get(address.port, ACCESS_CHECK_PATH, { cookie: `ccmem_token_${address.port}=${token}` })).status).toBe(401);
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin even with the token', async () => {
    const bearer = { authorization: `Bearer ${token}` };
    expect((await get(address.port, '/', { ...bearer, host: `evil.example:${address.port}` })).status).toBe(403);
    expect((await get(address.port, '/', { ...bearer, host: `127.0.0.1:1` })).status).toBe(403);
    expect((await get(address.port, '/', { ...bearer, origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(address.port, ACCESS_CHECK_PATH, { ...bearer, origin: 'http://evil.example' })).status).toBe(403);
  });

  it('never serves files outside the built renderer', async () => {
    expect((await get(address.port, '/../../../../etc/passwd')).body).not.toContain('root:');
    expect((await get(address.port, '/%2e%2e/%2e%2e/etc/passwd')).body).not.toContain('root:');
    expect((await get(address.port, '/assets/missing.js')).status).toBe(404);
  });

  it('opens a WebSocket only for the token as a subprotocol or a bearer header, from this origin', async () => {
    await expect(openSocket(address.port, {})).rejects.toThrow('401');
    await expect(openSocket(address.port, { origin }, [WIRE_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}wrong`])).rejects.toThrow('401');
    await expect(openSocket(address.port, { origin: 'http://evil.example' }, pageProtocols)).rejects.toThrow('403');
    await expect(openSocket(address.port, { origin, cookie: `ccmem_token_${address.port}=${token}` })).rejects.toThrow('401');
    const page = await openSocket(address.port, { origin }, pageProtocols);
    // The server picks the wire protocol and never echoes the token back.
    expect(page.protocol).toBe(WIRE_PROTOCOL);
    page.close();
    const script = await openSocket(address.port, { authorization: `Bearer ${token}` });
    script.close();
  });

  it('answers contract requests over the WebSocket with Result envelopes', async () => {
    const ws = await openSocket(address.port, { origin }, pageProtocols);
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

  it('echoes a heartbeat at once, so the page can tell a live connection from a silent one', async () => {
    const ws = await openSocket(address.port, { origin }, pageProtocols);
    try {
      const echoed = new Promise<unknown>((resolve) => ws.once('message', (data: Buffer) => resolve(JSON.parse(data.toString()))));
      ws.send(JSON.stringify({ heartbeat: 7 }));
      expect(await echoed).toEqual({ heartbeat: 7 });
      // Anything more in the message makes it a malformed request, not a heartbeat.
      const malformed = new Promise<unknown>((resolve) => ws.once('message', (data: Buffer) => resolve(JSON.parse(data.toString()))));
      ws.send(JSON.stringify({ heartbeat: 9, method: 'getHome' }));
      expect(await malformed).toMatchObject({ id: -1, result: { ok: false, error: { code: 'INVALID_INPUT' } } });
    } finally {
      ws.close();
    }
  });

  it('carries a backup archive of several megabytes both ways', async () => {
    // Random base64 barely compresses: the archive, and the request carrying it, are well over 1 MiB.
    writeFileSync(join(scenario.webshop.memoryDir, 'big-notes.md'), `# Notes\n${randomBytes(1_500_000).toString('base64')}\n`);
    const ws = await openSocket(address.port, { origin }, pageProtocols);
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
