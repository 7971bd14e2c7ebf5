import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startMcpToolServer, type McpToolServer } from '../../../electron/core/llm/mcpToolServer';

interface Reply {
  readonly status: number;
  readonly body: string;
}

/** One raw HTTP request, so a test can send any header (fetch will not set Host). */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: unknown }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}

const JSON_RPC_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe("a job's MCP tool server", () => {
  let server: McpToolServer;
  const calls: [string, unknown, string | null][] = [];
  afterEach(async () => {
    await server.close();
    calls.length = 0;
  });

  async function start(): Promise<McpToolServer> {
    server = await startMcpToolServer({
      name: 'ccmem',
      tools: [
        {
          name: 'echo',
          description: 'Echoes',
          input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        },
      ],
      call: (name, input, toolUseId) => {
        calls.push([name, input, toolUseId]);
        return Promise.resolve({ content: `echo: ${(input as { text: string }).text}`, isError: false });
      },
    });
    return server;
  }

  const rpc = (method: string, params: unknown, headers: Record<string, string> = {}) =>
    send(server.url, {
      headers: { ...JSON_RPC_HEADERS, authorization: `Bearer ${server.secret}`, ...headers },
      body: { jsonrpc: '2.0', id: 1, method, params },
    });

  it("lists and runs the tools for a client that brings the secret, and hands on the model's id for the call", async () => {
    await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const init = await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
    expect(init.status).toBe(200);
    expect(JSON.parse(init.body)).toMatchObject({ result: { serverInfo: { name: 'ccmem' }, capabilities: { tools: {} } } });
    const list = JSON.parse((await rpc('tools/list', {})).body) as { result: { tools: { name: string; inputSchema: unknown }[] } };
    expect(list.result.tools).toEqual([
      {
        name: 'echo',
        description: 'Echoes',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      },
    ]);
    const call = JSON.parse(
      (await rpc('tools/call', { name: 'echo', arguments: { text: 'hi' }, _meta: { 'claudecode/toolUseId': 'toolu_1' } })).body,
    );
    expect(call).toMatchObject({ result: { content: [{ type: 'text', text: 'echo: hi' }], isError: false } });
    expect(calls).toEqual([['echo', { text: 'hi' }, 'toolu_1']]);
  });

  it('refuses a request without the secret, with another one, or for another host or path, and runs nothing', async () => {
    await start();
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } };
    expect((await send(server.url, { headers: JSON_RPC_HEADERS, body })).status).toBe(401);
    expect((await send(server.url, { headers: { ...JSON_RPC_HEADERS, authorization: 'Bearer wrong' }, body })).status).toBe(401);
    expect((await send(server.url, { headers: { ...JSON_RPC_HEADERS, authorization: `bearer ${server.secret}x` }, body })).status).toBe(
      401,
    );
    const port = new URL(server.url).port;
    // A page that rebinds its own name to 127.0.0.1 still sends its own Host.
    const rebound = await send(server.url, {
      headers: { ...JSON_RPC_HEADERS, authorization: `Bearer ${server.secret}`, host: `evil.example:${port}` },
      body,
    });
    expect(rebound.status).toBe(404);
    expect(
      (
        await send(server.url.replace('/mcp', '/other'), {
          headers: { ...JSON_RPC_HEADERS, authorization: `Bearer ${server.secret}` },
          body,
        })
      ).status,
    ).toBe(404);
    expect(calls).toEqual([]);
  });

  it('gives each server its own secret, and stops listening when closed', async () => {
    const first = await start();
    const second = await startMcpToolServer({ name: 'ccmem', tools: [], call: () => Promise.resolve({ content: '', isError: false }) });
    expect(second.secret).not.toBe(first.secret);
    expect(first.secret.length).toBeGreaterThanOrEqual(40);
    await second.close();
    expect(second.listening()).toBe(false);
    await expect(send(second.url, { headers: JSON_RPC_HEADERS, body: {} })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(first.listening()).toBe(true);
  });
});
