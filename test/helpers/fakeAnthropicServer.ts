/**
 * A fake Anthropic Messages API on 127.0.0.1 for tests: the real SDK is pointed at it with `baseURL`.
 *
 *   const fake = await startFakeAnthropicServer();
 *   fake.enqueue(toolUseTurn([{ name: 'write_file', input: { path: 'a.md', content: 'x' } }]), textTurn('Done.'));
 *   ... run the job with ANTHROPIC_BASE_URL = fake.url ...
 *   expect(fake.requests[0].body.model).toBe('claude-sonnet-4-6');
 *   await fake.close();
 *
 * Each request takes the next scripted response: a message (sent as SSE when the request asks to stream,
 * as JSON otherwise), an HTTP error, a stream cut off after some events, a hang until the client aborts,
 * or any of the first two after a delay.
 * An empty queue answers 500 so a test that runs further than scripted fails loudly.
 *
 * Claude Code makes side calls besides the conversation (a session title, a compaction summary): pass
 * `answerSideCall` to answer those from the request itself, so the queue holds only the turns a test scripts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: unknown };

export interface FakeMessage {
  readonly kind: 'message';
  readonly content: readonly FakeContentBlock[];
  readonly stopReason: 'end_turn' | 'tool_use' | 'max_tokens';
  readonly usage: { readonly input_tokens: number; readonly output_tokens: number };
}

export interface FakeError {
  readonly kind: 'error';
  readonly status: 400 | 401 | 429 | 500 | 529;
  readonly errorType: string;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A streamed answer whose connection is closed after `afterEvents` SSE events, before `message_stop`. */
export interface FakeCut {
  readonly kind: 'cut';
  readonly message: FakeMessage;
  readonly afterEvents: number;
}

/** Never answers; the request ends only when the client aborts it (see `waitForRequest`). */
export interface FakeHang {
  readonly kind: 'hang';
}

/** Answers with `then` after a pause, so a test can look at the app while the model is "thinking". */
export interface FakeDelay {
  readonly kind: 'delay';
  readonly ms: number;
  readonly then: FakeMessage | FakeError;
}

export type FakeResponse = FakeMessage | FakeError | FakeCut | FakeHang | FakeDelay;

export interface RecordedRequest {
  /** False when `answerSideCall` answered it without taking a scripted response. */
  readonly fromQueue: boolean;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly rawBody: string;
  readonly body: Record<string, unknown>;
}

export interface FakeAnthropicServer {
  /** The base URL to give the SDK (`http://127.0.0.1:<port>`). */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  enqueue(...responses: FakeResponse[]): void;
  /** How many scripted responses are still waiting. */
  pending(): number;
  /** Resolves when the n-th request (1-based) has arrived. */
  waitForRequest(count: number): Promise<RecordedRequest>;
  close(): Promise<void>;
}

let toolIdCounter = 0;

/** A final answer with text only. */
export function textTurn(text: string, usage = { input_tokens: 1000, output_tokens: 100 }): FakeMessage {
  return { kind: 'message', content: [{ type: 'text', text }], stopReason: 'end_turn', usage };
}

/** A turn that calls tools (with an optional text block first). */
export function toolUseTurn(
  calls: readonly { readonly name: string; readonly input: unknown }[],
  options: { readonly text?: string; readonly usage?: FakeMessage['usage'] } = {},
): FakeMessage {
  const content: FakeContentBlock[] = options.text ? [{ type: 'text', text: options.text }] : [];
  for (const call of calls) content.push({ type: 'tool_use', id: `toolu_fake_${++toolIdCounter}`, name: call.name, input: call.input });
  return { kind: 'message', content, stopReason: 'tool_use', usage: options.usage ?? { input_tokens: 1000, output_tokens: 200 } };
}

export function errorResponse(status: FakeError['status'], message = 'scripted error', headers?: Record<string, string>): FakeError {
  const errorType =
    status === 429
      ? 'rate_limit_error'
      : status === 400
        ? 'invalid_request_error'
        : status === 401
          ? 'authentication_error'
          : status === 529
            ? 'overloaded_error'
            : 'api_error';
  return { kind: 'error', status, errorType, message, headers };
}

function messageJson(message: FakeMessage, model: string, id: string): Record<string, unknown> {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: message.content,
    stop_reason: message.stopReason,
    stop_sequence: null,
    usage: message.usage,
  };
}

/** The SSE events of one streamed answer, in the order the real API sends them. */
function streamEvents(message: FakeMessage, model: string, id: string): { event: string; data: unknown }[] {
  const events: { event: string; data: unknown }[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          ...messageJson(message, model, id),
          content: [],
          stop_reason: null,
          usage: { input_tokens: message.usage.input_tokens, output_tokens: 1 },
        },
      },
    },
  ];
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      });
      // Two deltas, so the client has to put the text together.
      const half = Math.ceil(block.text.length / 2);
      for (const piece of [block.text.slice(0, half), block.text.slice(half)]) {
        events.push({
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
        });
      }
    } else {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } },
      });
      const json = JSON.stringify(block.input);
      const half = Math.ceil(json.length / 2);
      for (const piece of [json.slice(0, half), json.slice(half)]) {
        events.push({
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } },
        });
      }
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: message.stopReason, stop_sequence: null },
      usage: { output_tokens: message.usage.output_tokens },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

function sse(event: { event: string; data: unknown }): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface FakeServerOptions {
  /** Answers a request outside the queue when it returns a message (side calls); null lets the queue answer. */
  readonly answerSideCall?: (body: Record<string, unknown>) => FakeMessage | null;
}

export async function startFakeAnthropicServer(options: FakeServerOptions = {}): Promise<FakeAnthropicServer> {
  const queue: FakeResponse[] = [];
  const requests: RecordedRequest[] = [];
  const waiters: { count: number; resolve: (request: RecordedRequest) => void }[] = [];
  let messageCounter = 0;

  function record(request: RecordedRequest): void {
    requests.push(request);
    for (const waiter of [...waiters]) {
      if (requests.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(requests[waiter.count - 1]);
      }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const path = (req.url ?? '/').split('?')[0];
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(rawBody) as Record<string, unknown>;
    } catch {
      body = {};
    }
    const isMessages = req.method === 'POST' && path === '/v1/messages';
    const sideAnswer = isMessages ? (options.answerSideCall?.(body) ?? null) : null;
    record({ fromQueue: isMessages && sideAnswer === null, method: req.method ?? 'GET', path, headers: { ...req.headers }, rawBody, body });
    if (!isMessages) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `No route ${path}` } }));
      return;
    }
    let next = sideAnswer ?? queue.shift();
    if (next?.kind === 'delay') {
      const { ms, then } = next;
      await new Promise((resolve) => setTimeout(resolve, ms));
      next = then;
    }
    const model = typeof body.model === 'string' ? body.model : 'unknown-model';
    const id = `msg_fake_${++messageCounter}`;
    if (!next) {
      res.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'The fake server has no scripted response left' } }));
      return;
    }
    switch (next.kind) {
      case 'hang':
        // Keep the socket open until the client gives up.
        return;
      case 'error':
        res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
        res.end(JSON.stringify({ type: 'error', error: { type: next.errorType, message: next.message } }));
        return;
      case 'cut': {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const sent = streamEvents(next.message, model, id).slice(0, next.afterEvents).map(sse).join('');
        // Let the events reach the client, then drop the connection as a failing network would.
        await new Promise<void>((resolve) => res.write(sent, () => resolve()));
        await new Promise((resolve) => setTimeout(resolve, 50));
        res.socket?.destroy();
        return;
      }
      case 'message':
        if (body.stream === true) {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          for (const event of streamEvents(next, model, id)) res.write(sse(event));
          res.end();
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(messageJson(next, model, id)));
        }
        return;
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...responses) => queue.push(...responses),
    pending: () => queue.length,
    waitForRequest(count) {
      if (requests.length >= count) return Promise.resolve(requests[count - 1]);
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
