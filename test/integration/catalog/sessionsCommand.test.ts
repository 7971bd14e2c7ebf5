import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { assistantChunk, toolUse } from '../../fixtures/transcriptLines';
import { ccmem } from '../../helpers/ccmem';

const tokens = z.strictObject({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  cacheCreation: z.number().int().nonnegative(),
  cacheRead: z.number().int().nonnegative(),
});

/** The documented schema of `ccmem sessions --json` (issue #4); scripts rely on exactly these keys. */
const sessionJsonSchema = z.strictObject({
  sessionId: z.uuid(),
  slug: z.string().min(1),
  path: z.string().min(1),
  mainTranscript: z.boolean(),
  title: z.string().nullable(),
  titleSource: z.enum(['custom-title', 'ai-title', 'last-prompt', 'summary', 'first-prompt', 'none']),
  agentName: z.string().nullable(),
  mode: z.string().nullable(),
  prLinks: z.array(z.strictObject({ url: z.string(), number: z.number().nullable(), repository: z.string().nullable() })),
  firstTimestamp: z.iso.datetime().nullable(),
  lastTimestamp: z.iso.datetime().nullable(),
  userPrompts: z.number().int().nonnegative(),
  assistantTurns: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  tokens,
  models: z.array(z.string()),
  subagents: z.array(
    z.strictObject({
      agentId: z.string().min(1),
      agentType: z.string().nullable(),
      description: z.string().nullable(),
      tokens,
      parentAgentId: z.string().nullable(),
      depth: z.number().int().positive(),
      workflowRunId: z.string().nullable(),
    }),
  ),
  compactions: z.number().int().nonnegative(),
  memoryWrites: z.array(z.string()),
  versions: z.array(z.string()),
  hasSessionMemory: z.boolean(),
  archived: z.boolean(),
  bytes: z.number().int().nonnegative(),
  badLines: z.number().int().nonnegative(),
});

describe('ccmem sessions on a scenario home', () => {
  let scenario: StandardScenario;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    scenario = await createStandardScenario();
    env = { HOME: scenario.home.tmp, CLAUDE_CONFIG_DIR: scenario.home.root, CCMEM_DATA_DIR: join(scenario.home.tmp, 'data') };
    const target = scenario.webshop.sessions[1];
    await appendFile(
      target.file,
      `${assistantChunk({
        sessionId: target.sessionId,
        messageId: 'msg_memory_write',
        usage: { output: 5 },
        timestamp: '2026-05-03T10:05:00.000Z',
        block: toolUse('toolu_mem', 'Write', { file_path: join(scenario.webshop.memoryDir, 'feedback_cart.md'), content: 'x' }),
      })}\n`,
    );
  });
  afterAll(() => scenario.home.cleanup());

  it('prints every session newest first in the documented schema, and writes nothing under the config root', async () => {
    const before = await snapshotTree(scenario.home.root);
    const { code, stdout, stderr } = await ccmem(['sessions', '--json'], env);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const sessions = z.array(sessionJsonSchema).parse(JSON.parse(stdout));
    expect(sessions).toHaveLength(6);
    const times = sessions.map((s) => s.lastTimestamp!);
    expect(times).toEqual([...times].sort().reverse());
    const checkout = scenario.webshop.sessions[0];
    expect(sessions.find((s) => s.sessionId === checkout.sessionId)).toEqual({
      sessionId: checkout.sessionId,
      slug: scenario.webshop.slug,
      path: checkout.file,
      mainTranscript: true,
      title: 'Checkout rewrite',
      titleSource: 'custom-title',
      agentName: null,
      mode: null,
      prLinks: [],
      firstTimestamp: checkout.firstTimestamp,
      lastTimestamp: checkout.lastTimestamp,
      userPrompts: 3,
      assistantTurns: 3,
      toolCalls: 0,
      tokens: { input: 9, output: 363, cacheCreation: 3600, cacheRead: 42000 },
      models: ['claude-sonnet-4-6'],
      subagents: [],
      compactions: 0,
      memoryWrites: [],
      versions: ['2.1.128'],
      hasSessionMemory: false,
      archived: false,
      bytes: checkout.bytes,
      badLines: 0,
    });
    expect(sessions.find((s) => s.sessionId === scenario.webshop.sessions[1].sessionId)).toMatchObject({
      toolCalls: 1,
      memoryWrites: [join(scenario.webshop.memoryDir, 'feedback_cart.md')],
    });
    expect(await snapshotTree(scenario.home.root)).toEqual(before);
  });

  it('narrows to one project with --project, and says so when there is no such project', async () => {
    const { code, stdout } = await ccmem(['sessions', '--project', scenario.windows.slug, '--json'], env);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { sessionId: string }[]).map((s) => s.sessionId)).toEqual([scenario.windows.sessions[0].sessionId]);
    // POSIX slugs start with '-'; the value must not be taken for an option.
    const posix = await ccmem(['sessions', '--project', scenario.webshop.slug, '--json'], env);
    expect(posix.code).toBe(0);
    expect((JSON.parse(posix.stdout) as unknown[]).length).toBe(scenario.webshop.sessions.length);
    const missing = await ccmem(['sessions', '--project', 'no-such-project'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No project folder named no-such-project');
  });

  it('prints a table without --json', async () => {
    const { code, stdout } = await ccmem(['sessions'], env);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^LAST ACTIVITY\s+PROJECT\s+TITLE/);
    expect(stdout).toContain('Checkout rewrite');
  });
});
