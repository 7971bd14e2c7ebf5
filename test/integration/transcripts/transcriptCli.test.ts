import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { writeRichSession, type RichSession } from './richSession';
import { ccmem } from '../../helpers/ccmem';

/** The documented schema of `ccmem transcript <id> --json`: one normalised entry per line of the live branch. */
const image = z.strictObject({ mediaType: z.string().nullable(), bytes: z.number().int().nullable() });
const hunk = z.strictObject({
  oldStart: z.number(),
  oldLines: z.number(),
  newStart: z.number(),
  newLines: z.number(),
  lines: z.array(z.string()),
});
const edit = z.strictObject({ filePath: z.string(), hunks: z.array(hunk) });
const toolResult = z.strictObject({
  toolUseId: z.string(),
  isError: z.boolean(),
  text: z.string(),
  omittedChars: z.number().int(),
  images: z.array(image),
  bash: z.strictObject({ stdout: z.string(), stderr: z.string(), interrupted: z.boolean() }).nullable(),
  edit: edit.nullable(),
  agentId: z.string().nullable(),
  persistedOutput: z.strictObject({ fileName: z.string(), recordedPath: z.string(), bytes: z.number().nullable() }).nullable(),
  line: z.number().int().positive(),
});
const hook = z.strictObject({
  event: z.string().nullable(),
  name: z.string().nullable(),
  outcome: z.string(),
  command: z.string().nullable(),
  exitCode: z.number().nullable(),
  text: z.string(),
  toolUseId: z.string().nullable(),
  line: z.number().int().positive(),
});
const toolCall = z.strictObject({
  id: z.string(),
  name: z.string(),
  input: z.string(),
  summary: z.string(),
  bashCommand: z.string().nullable(),
  edit: edit.nullable(),
  result: toolResult.nullable(),
  subagent: z.strictObject({ agentId: z.string(), agentType: z.string().nullable(), description: z.string().nullable() }).nullable(),
  hooks: z.array(hook),
});
const block = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('text'), text: z.string(), omittedChars: z.number().int() }),
  z.strictObject({ kind: z.literal('thinking'), text: z.string(), redacted: z.boolean() }),
  z.strictObject({ kind: z.literal('tool-call'), call: toolCall }),
  z.strictObject({ kind: z.literal('tool-result'), result: toolResult }),
  z.strictObject({ kind: z.literal('image'), image }),
  z.strictObject({ kind: z.literal('document'), mediaType: z.string().nullable(), bytes: z.number().int().nullable() }),
  z.strictObject({ kind: z.literal('unknown-block'), type: z.string(), raw: z.string() }),
]);
const usage = z.strictObject({ input: z.number(), output: z.number(), cacheCreation: z.number(), cacheRead: z.number() });
const body = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('user'), blocks: z.array(block) }),
  z.strictObject({
    kind: z.literal('assistant'),
    model: z.string().nullable(),
    messageId: z.string().nullable(),
    blocks: z.array(block),
    stopReason: z.string().nullable(),
    usage: usage.nullable(),
    isApiError: z.boolean(),
  }),
  z.strictObject({ kind: z.literal('compact-summary'), text: z.string(), omittedChars: z.number().int() }),
  z.strictObject({
    kind: z.literal('compact-boundary'),
    trigger: z.string().nullable(),
    preTokens: z.number().nullable(),
    postTokens: z.number().nullable(),
    logicalParentUuid: z.string().nullable(),
  }),
  z.strictObject({ kind: z.literal('system'), subtype: z.string().nullable(), level: z.string().nullable(), text: z.string() }),
  z.strictObject({ kind: z.literal('attachment'), attachmentType: z.string().nullable(), text: z.string(), hook: hook.nullable() }),
  z.strictObject({ kind: z.literal('progress'), dataType: z.string().nullable(), agentId: z.string().nullable(), text: z.string() }),
  z.strictObject({ kind: z.literal('summary'), summary: z.string(), leafUuid: z.string().nullable() }),
  z.strictObject({ kind: z.literal('metadata'), text: z.string() }),
  z.strictObject({ kind: z.literal('unknown'), raw: z.string(), omittedChars: z.number().int() }),
  z.strictObject({ kind: z.literal('unreadable'), reason: z.enum(['invalid-json', 'invalid-utf8', 'binary', 'too-long']) }),
]);
const entrySchema = z.strictObject({
  line: z.number().int().positive(),
  offset: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  type: z.string(),
  uuid: z.string().nullable(),
  parentUuid: z.string().nullable(),
  timestamp: z.string().nullable(),
  isSidechain: z.boolean(),
  isMeta: z.boolean(),
  agentId: z.string().nullable(),
  danglingParentUuid: z.string().nullable(),
  body,
});
const outputSchema = z.array(entrySchema);

describe('ccmem transcript on a scenario home', () => {
  let home: ScenarioHome;
  let rich: RichSession;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-transcript-cli-' });
    rich = await writeRichSession(home.project(home.workPath('shop')));
    env = { HOME: home.tmp, CLAUDE_CONFIG_DIR: home.root, CCMEM_DATA_DIR: join(home.tmp, 'data') };
  });
  afterAll(() => home.cleanup());

  it('--json prints the live branch as normalised entries in order, and writes nothing', async () => {
    const before = await snapshotTree(home.root);
    const { code, stdout, stderr } = await ccmem(['transcript', rich.sessionId, '--json'], env);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const entries = outputSchema.parse(JSON.parse(stdout));
    // Every chain entry of the live branch (meta lines included), plus the line of an unknown type, in file order.
    expect(entries).toHaveLength(rich.liveBranchChainEntries + 1);
    expect(entries.map((entry) => entry.line)).toEqual([...entries.map((entry) => entry.line)].sort((a, b) => a - b));
    expect(entries[0]).toMatchObject({
      line: 2,
      type: 'user',
      parentUuid: null,
      body: { kind: 'user', blocks: [{ kind: 'text', text: rich.firstPrompt }] },
    });
    expect(entries.some((entry) => entry.isMeta)).toBe(true);
    expect(entries.find((entry) => entry.type === rich.unknownType)?.body.kind).toBe('unknown');
    expect(entries.map((entry) => entry.body.kind)).toContain('compact-boundary');
    expect(entries.some((entry) => entry.uuid === rich.abandonedUuid)).toBe(false);
    const bashResult = entries
      .flatMap((entry) => (entry.body.kind === 'user' ? entry.body.blocks : []))
      .find((b) => b.kind === 'tool-result' && b.result.toolUseId === rich.bashToolUseId);
    expect(bashResult?.kind === 'tool-result' ? bashResult.result.bash?.stdout : null).toBe(rich.bashOutput);
    expect(await snapshotTree(home.root)).toEqual(before);
  });

  it('--json --agent prints a sub-agent run', async () => {
    const { code, stdout } = await ccmem(['transcript', rich.sessionId, '--json', '--agent', rich.agentId], env);
    expect(code).toBe(0);
    const entries = outputSchema.parse(JSON.parse(stdout));
    expect(entries.map((entry) => [entry.isSidechain, entry.agentId])).toEqual([
      [true, rich.agentId],
      [true, rich.agentId],
    ]);
  });

  it('prints Markdown by default and a self-contained page with --html', async () => {
    const markdown = await ccmem(['transcript', rich.sessionId], env);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain(`# ${rich.title}`);
    expect(markdown.stdout).toContain(rich.afterCompactionPrompt);
    const html = await ccmem(['transcript', rich.sessionId, '--html'], env);
    expect(html.stdout.startsWith('<!doctype html>')).toBe(true);
  });

  it('explains a missing session and a malformed id', async () => {
    const missing = await ccmem(['transcript', seededUuid('missing-session'), '--json'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`no session ${seededUuid('missing-session')}`);
    expect((await ccmem(['transcript', '../../etc/passwd'], env)).code).toBe(2);
    expect((await ccmem(['transcript'], env)).code).toBe(2);
  });
});
