import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Engine } from '../../../electron/core/engine';
import { MAX_MESSAGE_BYTES, WebShellServer } from '../../../electron/server/WebShellServer';
import { ACCESS_CHECK_PATH, TOKEN_PROTOCOL_PREFIX, WIRE_PROTOCOL } from '../../../shared/contract/webShellAccess';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { recordFigure } from '../support/figureLog';
import { atScale, timeoutAtScale } from '../support/reliabilityScale';
import { createTestEngine } from '../../fixtures/testEngine';

const TOKEN = 'reliability-token-Xy7_q2Lm9Pw4Rt8Vz1';

/** The cookie today's browsers would still hold from a server that traded its token for one (before #20). */
function oldTokenCookie(port: number, token = TOKEN): string {
  return `ccmem_token_${port}=${token}`;
}

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The server switched protocols (a WebSocket was opened). */
  readonly upgraded: boolean;
}

/** Sends one raw request with exactly these headers (Host included), as a browser or an attacker's script could. */
function send(port: number, path: string, headers: Record<string, string>, upgrade: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const upgradeHeaders = upgrade
      ? { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' }
      : {};
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers: { ...upgradeHeaders, ...headers }, setHost: false });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '', upgraded: true });
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, upgraded: false }));
    });
    // A refused upgrade is answered on the raw socket and then closed.
    req.on('error', (error) =>
      (error as NodeJS.ErrnoException).code === 'ECONNRESET'
        ? resolve({ status: 0, headers: {}, body: '', upgraded: false })
        : reject(error),
    );
    req.end();
  });
}

/** An independent statement of who may in: a loopback name on our port, our own origin or none, and our token. */
function isLoopbackHostHeader(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const match = /^(localhost|\[::1\]|127\.\d{1,3}\.\d{1,3}\.\d{1,3}):(\d+)$/i.exec(host.trim());
  return match !== null && Number(match[2]) === port;
}

describe('the web shell lets nobody at its data without the token, our Host and our Origin', () => {
  let scenario: StandardScenario;
  let engine: Engine;
  let server: WebShellServer;
  let port: number;
  let staticDir: string;

  beforeAll(async () => {
    scenario = await createStandardScenario();
    staticDir = mkdtempSync(join(tmpdir(), 'ccmem-static-'));
    mkdirSync(join(staticDir, 'assets'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
    engine = await createTestEngine(scenario.home, { shell: 'web' });
    server = new WebShellServer({
      handlers: engine.handlers,
      subscribe: (sink) => engine.subscribe(sink),
      staticDir,
      token: TOKEN,
      host: '127.0.0.1',
      port: 0,
      readOnly: false,
    });
    port = (await server.start()).port;
  });

  afterAll(async () => {
    await server.close();
    await engine.dispose();
    await scenario.home.cleanup();
    rmSync(staticDir, { recursive: true, force: true });
  });

  it(
    'refuses every request that names another Host or comes from another Origin, and the API to any without the token',
    async () => {
      const hosts = fc.oneof(
        fc.constantFrom(
          `127.0.0.1:${port}`,
          `localhost:${port}`,
          `[::1]:${port}`,
          `LOCALHOST:${port}`,
          `127.0.0.1:${port + 1}`,
          `127.0.0.1`,
          `evil.example:${port}`,
          `127.0.0.1.evil.example:${port}`,
          `localhost.:${port}`,
          `127.1:${port}`,
          `0.0.0.0:${port}`,
          `192.0.2.2:${port}`,
          `[::ffff:127.0.0.1]:${port}`,
          `127.0.0.1:${port}@evil.example`,
          `evil.example:${port}, 127.0.0.1:${port}`,
          '',
        ),
        fc.string({ maxLength: 30 }),
      );
      const origins = fc.constantFrom(
        null,
        'same',
        'http://evil.example',
        `http://127.0.0.1:${port}.evil.example`,
        `https://127.0.0.1:${port}`,
        `http://localhost:${port + 1}`,
        'null',
        'file://',
        `http://127.0.0.1:${port}/`,
      );
      const tokens = fc.constantFrom(
        TOKEN,
        `${TOKEN}x`,
        TOKEN.slice(0, -1),
        TOKEN.toUpperCase(),
        '',
        'x',
        `${TOKEN}\u0000`,
        encodeURIComponent(`${TOKEN} `),
      );
      const placements = fc.constantFrom(
        'none',
        'query',
        'cookie',
        'cookie for another port',
        'bearer',
        'basic',
        'query twice',
        'subprotocol',
        'subprotocol first',
      );
      const paths = fc.constantFrom(
        '/',
        '/ws',
        ACCESS_CHECK_PATH,
        '/assets/app.js',
        '/index.html',
        '/../../etc/passwd',
        '/missing',
        '/x/..//evil.example/',
        '//evil.example',
        '/\\evil.example/',
      );
      let tried = 0;
      let admittedWrongly = 0;
      const before = await snapshotTree(scenario.home.root);
      await fc.assert(
        fc.asyncProperty(
          hosts,
          origins,
          tokens,
          placements,
          paths,
          fc.boolean(),
          async (host, originKind, token, placement, path, upgrade) => {
            const headers: Record<string, string> = {};
            if (host !== '') headers.host = host;
            const origin = originKind === 'same' ? `http://${host}` : originKind;
            if (origin !== null) headers.origin = origin;
            let target = path;
            if (placement === 'query') target += `?token=${encodeURIComponent(token)}`;
            if (placement === 'query twice') target += `?token=wrong&token=${encodeURIComponent(token)}`;
            if (placement === 'cookie') headers.cookie = oldTokenCookie(port, token);
            if (placement === 'cookie for another port') headers.cookie = oldTokenCookie(port + 1, token);
            if (placement === 'bearer') headers.authorization = `Bearer ${token}`;
            if (placement === 'subprotocol') headers['sec-websocket-protocol'] = `${WIRE_PROTOCOL}, ${TOKEN_PROTOCOL_PREFIX}${token}`;
            if (placement === 'subprotocol first') headers['sec-websocket-protocol'] = `${TOKEN_PROTOCOL_PREFIX}${token}, ${WIRE_PROTOCOL}`;
            if (placement === 'basic') headers.authorization = `Basic ${Buffer.from(`x:${token}`).toString('base64')}`;
            for (const [name, value] of Object.entries(headers)) if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) delete headers[name];

            const answer = await send(port, target, headers, upgrade);
            const hostAndOriginOk =
              isLoopbackHostHeader(headers.host, port) && (headers.origin === undefined || headers.origin === `http://${headers.host}`);
            // The page's files hold no data; the WebSocket takes the token as a subprotocol or a bearer header, the
            // access check as a bearer header. A cookie or the query never stands for the token.
            const api = upgrade || path === ACCESS_CHECK_PATH;
            const carriedBy =
              placement === 'bearer'
                ? headers.authorization
                : placement.startsWith('subprotocol')
                  ? headers['sec-websocket-protocol']
                  : undefined;
            const tokenGiven = token === TOKEN && carriedBy !== undefined && (upgrade || placement === 'bearer');
            const mayEnter = hostAndOriginOk && (!api || tokenGiven) && (!upgrade || path === '/ws');
            if (!mayEnter) tried++;
            const admitted = answer.upgraded || (answer.status >= 200 && answer.status < 400);
            if (admitted && !mayEnter) admittedWrongly++;
            const asked = JSON.stringify({ host, origin, placement, token, path, upgrade });
            expect(admitted && !mayEnter, `${asked} → ${answer.status}`).toBe(false);
            // Nothing ever redirects (no open redirect to find) and nothing sets a cookie (no token to leak to other ports).
            expect(answer.status < 300 || answer.status >= 400, `${asked} → ${answer.status}`).toBe(true);
            expect(answer.headers.location).toBeUndefined();
            expect(answer.headers['set-cookie']).toBeUndefined();
            expect(answer.body).not.toContain(TOKEN);
            // Where the request is right in every way, it does get in: the refusals above are not a server refusing everything.
            if (mayEnter && (upgrade || path === ACCESS_CHECK_PATH || path.startsWith('/assets') || path === '/'))
              expect(admitted).toBe(true);
          },
        ),
        { numRuns: atScale(400, 20_000) },
      );
      recordFigure('badInputs', { tried }, 'web shell');
      expect(admittedWrongly).toBe(0);
      expect(await snapshotTree(scenario.home.root)).toEqual(before);
    },
    timeoutAtScale(30_000, 1_800_000),
  );

  it(
    'answers malformed WebSocket messages with INVALID_INPUT, survives oversized ones and keeps serving',
    async () => {
      const open = (): Promise<WebSocket> =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, [WIRE_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${TOKEN}`], {
            headers: { origin: `http://127.0.0.1:${port}` },
          });
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        });
      const before = await snapshotTree(scenario.home.root);
      const message = fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
        fc.anything({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? 'undefined'),
        fc
          .record({ id: fc.anything({ maxDepth: 1 }), method: fc.anything({ maxDepth: 1 }), args: fc.anything({ maxDepth: 2 }) })
          .map((v) => JSON.stringify(v) ?? ''),
        fc.constantFrom(
          '{"id":1,"method":"__proto__","args":{}}',
          '{"id":1,"method":"constructor","args":{}}',
          '{"id":1,"method":"getHome","args":{},"extra":1}',
          '{"id":-1,"method":"getHome","args":{}}',
          '{"id":1.5,"method":"getHome","args":{}}',
          '{"id":1,"method":"listSessions","args":{"configRoot":"/","slug":".."}}',
          '{"__proto__":{"polluted":true},"id":1,"method":"getHome","args":{}}',
        ),
      );
      let tried = 0;
      const ws = await open();
      try {
        await fc.assert(
          fc.asyncProperty(message, async (raw) => {
            tried++;
            const reply = new Promise<unknown>((resolve) => ws.once('message', (data: Buffer) => resolve(JSON.parse(data.toString()))));
            ws.send(raw);
            const answer = (await reply) as { id: number; result: { ok: boolean; error?: { code: string } } };
            expect(typeof answer.id).toBe('number');
            if (!answer.result.ok) expect(answer.result.error?.code).not.toBe('INTERNAL');
          }),
          { numRuns: atScale(200, 10_000) },
        );
      } finally {
        ws.close();
      }
      // A message beyond the size limit closes that socket; the server goes on serving others.
      const big = await open();
      const closed = new Promise<number>((resolve) => big.once('close', (code) => resolve(code)));
      big.send(Buffer.alloc(MAX_MESSAGE_BYTES + 1, 0x78));
      expect(await closed).toBe(1009);
      tried++;
      const after = await open();
      const reply = new Promise<{ result: { ok: boolean } }>((resolve) =>
        after.once('message', (data: Buffer) => resolve(JSON.parse(data.toString()))),
      );
      after.send(JSON.stringify({ id: 7, method: 'getHome', args: {} }));
      expect((await reply).result.ok).toBe(true);
      after.close();
      recordFigure('badInputs', { tried }, 'web shell');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(await snapshotTree(scenario.home.root)).toEqual(before);
    },
    timeoutAtScale(30_000, 1_800_000),
  );

  it('refuses a token cookie replayed from outside a browser, whatever Origin it claims', async () => {
    // Another local service that received the browser's cookies for 127.0.0.1 replays them with our own Origin.
    const forged = { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, cookie: oldTokenCookie(port) };
    const socket = await send(port, '/ws', forged, true);
    const access = await send(port, ACCESS_CHECK_PATH, forged, false);
    const withoutOrigin = await send(port, '/ws', { host: forged.host, cookie: forged.cookie }, true);
    recordFigure('badInputs', { tried: 3 }, 'web shell');
    expect(socket.upgraded).toBe(false);
    expect(withoutOrigin.upgraded).toBe(false);
    expect(access.status).toBe(401);
  });

  it('redirects nowhere, least of all off-site, whatever the path and the token', async () => {
    const paths = [
      `/x/..//evil.example/?token=${TOKEN}`,
      `//evil.example/?token=${TOKEN}`,
      `/%2F%2Fevil.example/?token=${TOKEN}`,
      `/\\evil.example/?token=${TOKEN}`,
      `/x/../\\evil.example?token=${TOKEN}`,
      `/?token=${TOKEN}&next=//evil.example`,
    ];
    for (const path of paths) {
      const answer = await send(port, path, { host: `127.0.0.1:${port}` }, false);
      expect(answer.headers.location, path).toBeUndefined();
      expect(answer.status === 200 || answer.status === 404, `${path} → ${answer.status}`).toBe(true);
    }
    recordFigure('badInputs', { tried: paths.length }, 'web shell');
  });
});
