/**
 * The real Claude Code CLI writes a session into a temp home against the fake API, and `ccmem` reads it back:
 * the harness itself, with an API key and with a subscription login.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sanitizePathPrefix } from '../../../shared/claude/sanitizePath';
import {
  answerClaudeCodeSideCall,
  createClaudeCodeHome,
  TEST_API_KEY,
  TEST_OAUTH_TOKEN,
  type ClaudeCodeAuth,
  type ClaudeCodeHome,
} from '../../helpers/claudeCode/claudeCodeHome';
import { describeWithClaudeCode } from '../../helpers/claudeCode/describeWithClaudeCode';
import { startFakeAnthropicServer, textTurn, type FakeAnthropicServer } from '../../helpers/fakeAnthropicServer';
import { ccmem } from '../../helpers/ccmem';

describeWithClaudeCode('the real Claude Code CLI against the fake API', (binary) => {
  let fake: FakeAnthropicServer;
  const homes: ClaudeCodeHome[] = [];

  beforeAll(async () => {
    fake = await startFakeAnthropicServer({ answerSideCall: answerClaudeCodeSideCall });
  });
  afterAll(async () => {
    await fake.close();
    await Promise.all(homes.map((home) => home.dispose()));
  });

  for (const auth of ['api-key', 'subscription'] as const satisfies readonly ClaudeCodeAuth[]) {
    it(`writes a session ccmem reads back (${auth})`, { timeout: 60_000 }, async () => {
      const home = await createClaudeCodeHome({ binary, apiUrl: fake.url, auth });
      homes.push(home);
      const project = await home.project('tea-shop');
      const before = fake.requests.length;
      fake.enqueue(textTurn('Noted: you like green tea.', { input_tokens: 1200, output_tokens: 30 }));
      const run = await home.run(['-p', 'Remember that I like green tea', '--output-format', 'stream-json', '--verbose'], { cwd: project });
      expect(run.result, run.stderr).toMatchObject({ type: 'result', is_error: false });

      const sent = fake.requests.slice(before).filter((request) => request.fromQueue);
      expect(sent).toHaveLength(1);
      if (auth === 'api-key') expect(sent[0].headers['x-api-key']).toBe(TEST_API_KEY);
      else {
        expect(sent[0].headers.authorization).toBe(`Bearer ${TEST_OAUTH_TOKEN}`);
        expect(sent[0].headers['x-api-key']).toBeUndefined();
      }

      const env = { HOME: home.home, CLAUDE_CONFIG_DIR: home.configDir, CCMEM_DATA_DIR: join(home.tmp, 'data') };
      const listed = await ccmem(['sessions', '--json'], env);
      expect(listed.code, listed.stderr).toBe(0);
      const sessions = JSON.parse(listed.stdout) as Record<string, unknown>[];
      expect(sessions).toHaveLength(1);
      expect(sessions[0]).toMatchObject({
        sessionId: run.result?.session_id,
        slug: sanitizePathPrefix(project),
        path: join(home.configDir, 'projects', sanitizePathPrefix(project), `${String(run.result?.session_id)}.jsonl`),
        title: 'Remember that I like green tea',
        userPrompts: 1,
        assistantTurns: 1,
        tokens: { input: 1200, output: 30, cacheCreation: 0, cacheRead: 0 },
        versions: ['2.1.328'],
        badLines: 0,
      });
    });
  }
});
