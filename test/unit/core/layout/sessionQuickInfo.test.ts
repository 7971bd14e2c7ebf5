import { mkdtempSync, realpathSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LITE_READ_BYTES, readSessionQuickInfo } from '../../../../electron/core/layout/sessionQuickInfo';
import { createScenarioHome, type ScenarioHome } from '../../../fixtures/scenarioHome';

const SID = '11111111-2222-4333-8444-555555555555';
let dir: string;
let counter = 0;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-quickinfo-')));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const envelope = { sessionId: SID, userType: 'external', entrypoint: 'cli', version: '2.1.128', gitBranch: 'main', cwd: '/work/app' };
const user = (content: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'user',
  message: { role: 'user', content },
  uuid: `u${counter++}`,
  parentUuid: null,
  timestamp: '2026-05-01T10:00:00.000Z',
  ...envelope,
  ...extra,
});
const assistant = (text: string, timestamp: string) => ({
  type: 'assistant',
  message: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text }] },
  uuid: `a${counter++}`,
  timestamp,
  ...envelope,
});

async function writeLines(lines: readonly unknown[], suffix = ''): Promise<string> {
  const file = join(dir, `${SID}-${counter++}.jsonl`);
  await writeFile(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n' + suffix);
  return file;
}

describe('readSessionQuickInfo: title precedence', () => {
  const prompt = user('The first real prompt');
  const all = [
    // A legacy summary titles the session whose message its leafUuid names: this one.
    { type: 'summary', summary: 'Legacy summary', leafUuid: prompt.uuid },
    prompt,
    { type: 'ai-title', sessionId: SID, aiTitle: 'AI title' },
    { type: 'last-prompt', sessionId: SID, lastPrompt: 'The last prompt' },
    { type: 'custom-title', sessionId: SID, customTitle: 'My custom title' },
  ];

  it.each([
    [[], 'My custom title', 'custom-title'],
    [['custom-title'], 'AI title', 'ai-title'],
    [['custom-title', 'ai-title'], 'The last prompt', 'last-prompt'],
    [['custom-title', 'ai-title', 'last-prompt'], 'Legacy summary', 'summary'],
    [['custom-title', 'ai-title', 'last-prompt', 'summary'], 'The first real prompt', 'first-prompt'],
  ])('without %j the title is %j (%s)', async (removed, title, source) => {
    const file = await writeLines(all.filter((line) => !(removed as string[]).includes(line.type)));
    const info = await readSessionQuickInfo(file, SID);
    expect(info.title).toBe(title);
    expect(info.titleSource).toBe(source);
    expect(info.warnings).toEqual([]);
  });

  it('takes the LAST of repeated metadata entries (re-appended every turn)', async () => {
    const file = await writeLines([
      user('p1'),
      { type: 'ai-title', sessionId: SID, aiTitle: 'First draft' },
      { type: 'custom-title', sessionId: SID, customTitle: 'Old name' },
      user('p2'),
      { type: 'ai-title', sessionId: SID, aiTitle: 'Second draft' },
      { type: 'custom-title', sessionId: SID, customTitle: 'Renamed' },
      { type: 'custom-title', sessionId: SID, customTitle: '' },
    ]);
    const info = await readSessionQuickInfo(file, SID);
    expect(info.title).toBe('Renamed');
    expect(info.titleSource).toBe('custom-title');
  });

  it('skips <command-name>, meta, compact-summary, sidechain, interruption and tool-result lines when picking the first prompt', async () => {
    const file = await writeLines([
      user('<local-command-caveat>Caveat: …</local-command-caveat>', { isMeta: true }),
      user('<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>'),
      { type: 'system', subtype: 'local_command', content: '<local-command-stdout></local-command-stdout>', ...envelope },
      user('Skill body injected', { isMeta: true }),
      user('This session is being continued from a previous conversation…', { isCompactSummary: true }),
      user('sub-agent prompt', { isSidechain: true }),
      user('[Request interrupted by user]'),
      user([{ type: 'tool_result', tool_use_id: 't', content: 'output' }]),
      user('   '),
      user([{ type: 'text', text: '  Explain\n the   build  ' }]),
      user('a later prompt'),
    ]);
    const info = await readSessionQuickInfo(file, SID);
    expect(info.title).toBe('Explain the build');
    expect(info.titleSource).toBe('first-prompt');
  });

  it('has no title when there is no meaningful prompt and no metadata', async () => {
    const file = await writeLines([user('<command-name>/clear</command-name>'), user('meta', { isMeta: true })]);
    const info = await readSessionQuickInfo(file, SID);
    expect(info).toMatchObject({ title: null, titleSource: 'none', cwd: '/work/app' });
  });

  it('cuts a very long title to 200 characters', async () => {
    const file = await writeLines([{ type: 'ai-title', sessionId: SID, aiTitle: 'T'.repeat(300) }]);
    const info = await readSessionQuickInfo(file, SID);
    expect(info.title).toHaveLength(200);
    expect(info.title?.endsWith('…')).toBe(true);
  });
});

describe('readSessionQuickInfo: envelope fields', () => {
  it('takes the first cwd and timestamp, the last timestamp, branch and version', async () => {
    const file = await writeLines([
      { type: 'file-history-snapshot', messageId: 'm', snapshot: { trackedFileBackups: {} } },
      user('first', { timestamp: '2026-05-01T10:00:00.000Z', cwd: '/work/app', gitBranch: 'main', version: '2.1.81' }),
      assistant('ok', '2026-05-01T10:00:05.000Z'),
      user('second', { timestamp: '2026-05-01T11:00:00.000Z', cwd: '/work/app/sub', gitBranch: 'feat/x', version: '2.1.97' }),
      { type: 'permission-mode', sessionId: SID, permissionMode: 'default' },
    ]);
    const info = await readSessionQuickInfo(file, SID);
    expect(info).toMatchObject({
      sessionId: SID,
      file,
      cwd: '/work/app',
      firstTimestamp: '2026-05-01T10:00:00.000Z',
      lastTimestamp: '2026-05-01T11:00:00.000Z',
      gitBranch: 'feat/x',
      version: '2.1.97',
      titleSource: 'first-prompt',
      title: 'first',
    });
    expect(info.bytes).toBeGreaterThan(0);
  });

  it('treats a file of only file-history-snapshot lines as an empty session: no title, no cwd', async () => {
    const file = await writeLines([
      {
        type: 'file-history-snapshot',
        messageId: 'm1',
        snapshot: { messageId: 'm1', trackedFileBackups: {}, timestamp: '2026-01-01T00:00:00.000Z' },
      },
      {
        type: 'file-history-snapshot',
        messageId: 'm2',
        snapshot: { messageId: 'm2', trackedFileBackups: {}, timestamp: '2026-01-01T00:01:00.000Z' },
      },
    ]);
    const info = await readSessionQuickInfo(file, SID);
    expect(info).toMatchObject({
      title: null,
      titleSource: 'none',
      cwd: null,
      firstTimestamp: null,
      gitBranch: null,
      version: null,
      warnings: [],
    });
  });
});

describe('readSessionQuickInfo: files larger than 64 KiB (head + tail only)', () => {
  it('reads cwd/first timestamp from the head and the title/last timestamp from the tail, never the middle', async () => {
    const pad = (n: number) =>
      user([{ type: 'tool_result', tool_use_id: `t${n}`, content: 'p'.repeat(30_000) }], { timestamp: '2026-05-01T10:30:00.000Z' });
    const lines = [
      user('first prompt in head', { timestamp: '2026-05-01T10:00:00.000Z', cwd: '/head/cwd', gitBranch: 'head-branch' }),
      pad(1),
      pad(2),
      pad(3),
      // Only in the middle: a lite read never sees it.
      { type: 'custom-title', sessionId: SID, customTitle: 'Hidden in the middle' },
      pad(4),
      pad(5),
      pad(6),
      { type: 'ai-title', sessionId: SID, aiTitle: 'Title in the tail' },
      assistant('done', '2026-05-01T12:00:00.000Z'),
    ];
    const file = await writeLines(lines);
    const info = await readSessionQuickInfo(file, SID);
    expect(info.bytes).toBeGreaterThan(2 * LITE_READ_BYTES);
    expect(info).toMatchObject({
      title: 'Title in the tail',
      titleSource: 'ai-title',
      cwd: '/head/cwd',
      firstTimestamp: '2026-05-01T10:00:00.000Z',
      lastTimestamp: '2026-05-01T12:00:00.000Z',
      warnings: [],
    });
  });

  it('finds a title that only the head holds', async () => {
    const lines = [
      user('x', { timestamp: '2026-05-01T10:00:00.000Z' }),
      { type: 'custom-title', sessionId: SID, customTitle: 'Named early' },
      ...Array.from({ length: 6 }, (_, i) => user([{ type: 'tool_result', tool_use_id: `t${i}`, content: 'q'.repeat(30_000) }])),
    ];
    const info = await readSessionQuickInfo(await writeLines(lines), SID);
    expect(info.bytes).toBeGreaterThan(2 * LITE_READ_BYTES);
    expect(info.title).toBe('Named early');
    expect(info.titleSource).toBe('custom-title');
  });

  it('warns when the first line alone is longer than 64 KiB, and still reads the tail', async () => {
    const file = await writeLines([
      user('h'.repeat(LITE_READ_BYTES + 10)),
      ...Array.from({ length: 4 }, (_, i) => user([{ type: 'tool_result', tool_use_id: `t${i}`, content: 'q'.repeat(30_000) }])),
      { type: 'ai-title', sessionId: SID, aiTitle: 'Tail title' },
    ]);
    const info = await readSessionQuickInfo(file, SID);
    expect(info.warnings.map((w) => w.code)).toEqual(['line-too-long']);
    expect(info.title).toBe('Tail title');
    expect(info.cwd).toBe('/work/app');
  });
});

describe('readSessionQuickInfo: bad input gives a warning, never a throw', () => {
  it('0-byte file → empty-file', async () => {
    const file = join(dir, `${SID}-empty.jsonl`);
    await writeFile(file, '');
    const info = await readSessionQuickInfo(file, SID);
    expect(info.warnings.map((w) => w.code)).toEqual(['empty-file']);
    expect(info).toMatchObject({ bytes: 0, title: null, titleSource: 'none', cwd: null });
  });

  it('missing file → unreadable', async () => {
    const info = await readSessionQuickInfo(join(dir, 'nope.jsonl'), SID);
    expect(info.warnings).toEqual([expect.objectContaining({ code: 'unreadable', path: join(dir, 'nope.jsonl') })]);
  });

  it('a folder named like a session → unreadable', async () => {
    const folder = join(dir, `${SID}-folder.jsonl`);
    await mkdir(folder);
    const info = await readSessionQuickInfo(folder, SID);
    expect(info.warnings.map((w) => w.code)).toEqual(['unreadable']);
  });

  it('broken JSON lines are counted in one warning; the good lines still give a title', async () => {
    const file = await writeLines([
      user('good prompt'),
      '{"type":"user",',
      'not json at all',
      { type: 'ai-title', sessionId: SID, aiTitle: 'Still found' },
    ]);
    const info = await readSessionQuickInfo(file, SID);
    expect(info.title).toBe('Still found');
    expect(info.warnings).toEqual([expect.objectContaining({ code: 'invalid-json-line', message: expect.stringContaining('2 line(s)') })]);
  });

  it('a half-written last line is not an error', async () => {
    const file = await writeLines([user('prompt')], '{"type":"assistant","message":{"ro');
    const info = await readSessionQuickInfo(file, SID);
    expect(info.warnings).toEqual([]);
    expect(info.title).toBe('prompt');
  });

  it('invalid UTF-8 lines → invalid-utf8, the rest still parses', async () => {
    const file = join(dir, `${SID}-utf8.jsonl`);
    await writeFile(
      file,
      Buffer.concat([
        Buffer.from(`${JSON.stringify(user('valid prompt'))}\n`),
        Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d, 0x0a]),
      ]),
    );
    const info = await readSessionQuickInfo(file, SID);
    expect(info.title).toBe('valid prompt');
    expect(info.warnings.map((w) => w.code)).toEqual(['invalid-utf8']);
  });

  it('binary data → binary-file (and no flood of invalid-json warnings)', async () => {
    const file = join(dir, `${SID}-bin.jsonl`);
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
    await writeFile(file, bytes);
    const info = await readSessionQuickInfo(file, SID);
    const codes = info.warnings.map((w) => w.code);
    expect(codes).toContain('binary-file');
    expect(codes).not.toContain('invalid-json-line');
    expect(info.title).toBeNull();
  });
});

describe('readSessionQuickInfo on scenario-built sessions', () => {
  let home: ScenarioHome;
  beforeAll(async () => {
    home = await createScenarioHome();
  });
  afterAll(async () => {
    await home.cleanup();
  });

  it.each(['custom-title', 'ai-title', 'last-prompt', 'summary', 'first-prompt', 'none'] as const)(
    '%s sessions report what the builder wrote',
    async (kind) => {
      const project = home.project(home.workPath(`p-${kind}`));
      const facts = await project.session({ titleKind: kind, turns: 3, clearPreamble: kind === 'first-prompt', badLines: 0 });
      const info = await readSessionQuickInfo(facts.file, facts.sessionId);
      expect(info).toMatchObject({
        title: facts.title,
        titleSource: facts.titleSource,
        cwd: facts.cwd,
        firstTimestamp: facts.firstTimestamp,
        lastTimestamp: facts.lastTimestamp,
        gitBranch: facts.gitBranch,
        version: facts.version,
        bytes: facts.bytes,
        mtime: facts.mtime.toISOString(),
        warnings: [],
      });
    },
  );

  it('a padded session (> 64 KiB) with a custom title only in the tail', async () => {
    const project = home.project(home.workPath('padded'));
    const facts = await project.session({
      titleKind: 'custom-title',
      title: 'Late rename',
      turns: 2,
      padBytes: 200_000,
      badLines: 2,
      truncatedTail: true,
    });
    const info = await readSessionQuickInfo(facts.file, facts.sessionId);
    expect(facts.bytes).toBeGreaterThan(200_000);
    expect(info.title).toBe('Late rename');
    expect(info.cwd).toBe(project.cwd);
    expect(info.warnings.map((w) => w.code)).toEqual(['invalid-json-line']);
  });
});
