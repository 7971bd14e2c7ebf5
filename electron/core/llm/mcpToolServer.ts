import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { LlmToolDefinition } from './llmTypes';

/**
 * Runs one tool call; the answer goes back to the model as the tool's result. `toolUseId` is the model's id for
 * the call when the client sends it (Claude Code does, as `_meta["claudecode/toolUseId"]`), else null.
 */
export type McpToolCall = (
  name: string,
  input: unknown,
  toolUseId: string | null,
) => Promise<{ readonly content: string; readonly isError: boolean }>;

const TOOL_USE_ID_META = 'claudecode/toolUseId';

export interface McpToolServerOptions {
  /** The server's name; Claude Code shows its tools to the model as `mcp__<name>__<tool>`. */
  readonly name: string;
  readonly tools: readonly LlmToolDefinition[];
  readonly call: McpToolCall;
}

/** One job's tool server, listening on the loopback interface until it is closed. */
export interface McpToolServer {
  /** The Streamable HTTP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** The bearer token every request must carry; random per server. */
  readonly secret: string;
  /** Whether the server still accepts connections. */
  listening(): boolean;
  close(): Promise<void>;
}

const ENDPOINT = '/mcp';
/** A write may carry 250 KB of content; JSON escaping can double it. */
const MAX_REQUEST_BYTES = 1024 * 1024;

function sameSecret(header: string | undefined, expected: Buffer): boolean {
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Serves a job's tools over MCP for the Claude Code it runs: the one module that uses the MCP SDK.
 *
 * Why a loopback HTTP endpoint and not a stdio bridge: the tools must run inside the engine, next to the job's
 * staging overlay; a stdio server would be a second program that Claude Code starts and that would still have to
 * reach the engine over some socket, and the packaged desktop app has no plain Node to start it with. Here nothing
 * else is started: the port listens on 127.0.0.1 only, every request must carry the per-job secret (which reaches
 * Claude Code in a private config file, never on a command line), the Host header must name that address (no DNS
 * rebinding), and closing the server with the job ends every connection.
 *
 * Each request gets its own stateless MCP server object: the tools keep no session state of their own (the job's
 * toolbox does), so a client that reconnects is served the same way.
 */
export async function startMcpToolServer(options: McpToolServerOptions): Promise<McpToolServer> {
  const secret = randomBytes(32).toString('base64url');
  const expected = Buffer.from(`Bearer ${secret}`);
  const sockets = new Set<Socket>();
  let host = '';

  function mcpServerForRequest(): Server {
    const server = new Server({ name: options.name, version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: options.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.input_schema })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const toolUseId = request.params._meta?.[TOOL_USE_ID_META];
      const outcome = await options.call(
        request.params.name,
        request.params.arguments ?? {},
        typeof toolUseId === 'string' ? toolUseId : null,
      );
      return { content: [{ type: 'text' as const, text: outcome.content }], isError: outcome.isError };
    });
    return server;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.headers.host !== host || (req.url ?? '').split('?')[0] !== ENDPOINT) {
      res.writeHead(404).end();
      return;
    }
    if (!sameSecret(req.headers.authorization, expected)) {
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
    const server = mcpServerForRequest();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_REQUEST_BYTES,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  http.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  return {
    url: `http://${host}${ENDPOINT}`,
    secret,
    listening: () => http.listening,
    close: () =>
      new Promise<void>((resolve) => {
        if (!http.listening) return resolve();
        http.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
