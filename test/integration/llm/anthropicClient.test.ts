import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicClient } from '../../../electron/core/llm/anthropicClient';
import { LlmError, type LlmTurnRequest } from '../../../electron/core/llm/llmTypes';
import {
  errorResponse,
  startFakeAnthropicServer,
  textTurn,
  toolUseTurn,
  type FakeAnthropicServer,
} from '../../helpers/fakeAnthropicServer';

const KEY = 'sk-ant-api03-client-test-key-0123456789';
const REQUEST: LlmTurnRequest = {
  model: 'claude-sonnet-4-6',
  system: 'You are tested.',
  messages: [{ role: 'user', content: 'Hello' }],
  tools: [
    {
      name: 'list_dir',
      description: 'List',
      input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  ],
  maxTokens: 100,
};

describe('the Anthropic client against the fake Messages API, with the real SDK', () => {
  let fake: FakeAnthropicServer;
  beforeEach(async () => {
    fake = await startFakeAnthropicServer();
  });
  afterEach(async () => {
    await fake.close();
  });
  const client = (maxRetries = 0) => createAnthropicClient({ apiKey: KEY, baseUrl: fake.url, maxRetries });

  it('streams a turn with text and tool use, sending the key only as a header', async () => {
    fake.enqueue(
      toolUseTurn([{ name: 'list_dir', input: { path: 'notes', nested: { deep: [1, 2] } } }], {
        text: 'Looking.',
        usage: { input_tokens: 12, output_tokens: 34 },
      }),
    );
    const result = await client().createTurn(REQUEST, new AbortController().signal);
    expect(result.content).toEqual([
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: expect.stringMatching(/^toolu_fake_/), name: 'list_dir', input: { path: 'notes', nested: { deep: [1, 2] } } },
    ]);
    expect(result).toMatchObject({ stopReason: 'tool_use', usage: { inputTokens: 12, outputTokens: 34 } });
    const [request] = fake.requests;
    expect(request.path).toBe('/v1/messages');
    expect(request.body).toMatchObject({ model: 'claude-sonnet-4-6', stream: true, max_tokens: 100, system: 'You are tested.' });
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.rawBody).not.toContain(KEY);
  });

  it('probes without streaming', async () => {
    fake.enqueue(textTurn('OK', { input_tokens: 5, output_tokens: 1 }));
    const result = await client().probe('claude-haiku-4-5', new AbortController().signal);
    expect(result.content).toEqual([{ type: 'text', text: 'OK' }]);
    expect(fake.requests[0].body.stream).toBeUndefined();
    expect(fake.requests[0].body.model).toBe('claude-haiku-4-5');
  });

  it('turns HTTP errors into errors a user can act on, never carrying the key', async () => {
    for (const [status, kind] of [
      [400, 'bad-request'],
      [401, 'auth'],
      [429, 'rate-limit'],
      [500, 'server'],
      [529, 'server'],
    ] as const) {
      fake.enqueue(errorResponse(status, `echo ${KEY}`));
      const error: unknown = await client()
        .createTurn(REQUEST, new AbortController().signal)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmError);
      expect(error).toMatchObject({ kind, status });
      expect((error as LlmError).message).not.toContain(KEY);
    }
  });

  it('reports a stream cut mid-way as an incomplete answer, and an unreachable server as such', async () => {
    fake.enqueue({ kind: 'cut', message: textTurn('half an answer'), afterEvents: 3 });
    await expect(client().createTurn(REQUEST, new AbortController().signal)).rejects.toMatchObject({ kind: 'incomplete-stream' });
    const closed = createAnthropicClient({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9', maxRetries: 0 });
    await expect(closed.createTurn(REQUEST, new AbortController().signal)).rejects.toMatchObject({ kind: 'connection' });
  });

  it('aborts a request in flight', async () => {
    fake.enqueue({ kind: 'hang' });
    const controller = new AbortController();
    const pending = client().createTurn(REQUEST, controller.signal);
    await fake.waitForRequest(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });
});
