/** The bad-input list: no crash, bad lines counted, nothing from the valid lines lost. */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonlLines } from '../../../electron/core/jsonl/fileLineReader';
import { SessionCatalog } from '../../../electron/core/catalog/SessionCatalog';
import { createScenarioHome, seededUuid, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { assistantChunk, metadata, userPrompt } from '../../unit/catalog/transcriptLines';

const HUNDRED_MB = 100 * 1024 * 1024;

async function writeHugeLineFile(path: string, before: string, after: string): Promise<void> {
  const stream = createWriteStream(path);
  const write = (chunk: string | Buffer) =>
    new Promise<void>((resolve) => (stream.write(chunk) ? resolve() : stream.once('drain', resolve)));
  await write(`${before}\n{"type":"user","message":{"role":"user","content":"`);
  const block = Buffer.alloc(1024 * 1024, 'a');
  for (let written = 0; written < HUNDRED_MB; written += block.length) await write(block);
  await write(`"}}\n${after}\n`);
  await new Promise<void>((resolve) => stream.end(resolve));
}

describe('catalog on bad input', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let catalog: SessionCatalog;
  const ids = {
    mixed: seededUuid('bad-mixed'),
    huge: seededUuid('bad-huge'),
    metadataOnly: seededUuid('bad-metadata-only'),
    duplicateA: seededUuid('bad-duplicate-a'),
    duplicateB: seededUuid('bad-duplicate-b'),
  };

  beforeAll(async () => {
    home = await createScenarioHome();
    project = home.project(home.workPath('bad'));
    const good = (n: number, sessionId: string) => [
      userPrompt(`prompt ${n}`, { sessionId, uuid: `${sessionId}-u${n}` }),
      assistantChunk({
        sessionId,
        messageId: `${sessionId}-m${n}`,
        usage: { output: 10 },
        uuid: `${sessionId}-a${n}`,
        parentUuid: `${sessionId}-u${n}`,
      }),
    ];
    const mixed = Buffer.concat([
      Buffer.from(`${good(1, ids.mixed).join('\n')}\n`),
      Buffer.from('{"type":"user","message":{"role":"user","content":"bad \xff\xfe utf8"}}\n', 'latin1'),
      Buffer.from(`${userPrompt('nul \u0000 inside', { sessionId: ids.mixed }).replace('\\u0000', '\u0000')}\n`),
      Buffer.from('not json at all\n\n[1,2,3]\n'),
      // A dangling parent and a cycle between two sidechain lines: grouped, never walked forever.
      Buffer.from(`${userPrompt('orphan child', { sessionId: ids.mixed, parentUuid: 'does-not-exist' })}\n`),
      Buffer.from(
        `${assistantChunk({ sessionId: ids.mixed, messageId: 'cyc1', usage: { output: 1 }, isSidechain: true, uuid: 'c1', parentUuid: 'c2' })}\n`,
      ),
      Buffer.from(
        `${assistantChunk({ sessionId: ids.mixed, messageId: 'cyc2', usage: { output: 1 }, isSidechain: true, uuid: 'c2', parentUuid: 'c1' })}\n`,
      ),
      Buffer.from(`${good(2, ids.mixed).join('\n')}\n`),
      // Still being written: no newline yet.
      Buffer.from('{"type":"assistant","message":{"id":"partial"'),
    ]);
    await project.rawFile(`${ids.mixed}.jsonl`, mixed);
    await writeHugeLineFile(join(project.dir, `${ids.huge}.jsonl`), good(1, ids.huge).join('\n'), good(2, ids.huge).join('\n'));
    await project.rawFile(
      `${ids.metadataOnly}.jsonl`,
      `${[metadata('file-history-snapshot', { messageId: 'x', snapshot: {} }), metadata('permission-mode', { permissionMode: 'default' })].join('\n')}\n`,
    );
    // The same uuids in two files (a --fork-session copy): each file is its own session.
    const shared = good(1, ids.duplicateA).join('\n');
    await project.rawFile(`${ids.duplicateA}.jsonl`, `${shared}\n`);
    await project.rawFile(`${ids.duplicateB}.jsonl`, `${shared}\n${good(5, ids.duplicateB).join('\n')}\n`);
    await project.rawFile(`${seededUuid('bad-empty')}.jsonl`, '');
    catalog = new SessionCatalog({ dataDir: join(home.tmp, 'data'), roots: [home.root] });
    await catalog.build();
  }, 60_000);
  afterAll(async () => {
    await catalog.dispose();
    await home.cleanup();
  });

  it('counts invalid UTF-8, NUL bytes and non-JSON lines as bad and keeps every valid line', () => {
    const entry = catalog.get(home.root, project.slug, ids.mixed)!;
    expect(entry.badLines).toBe(4);
    expect(entry.userPrompts).toBe(3);
    expect(entry.assistantTurns).toBe(2);
    expect(entry.tokens.output).toBe(20);
    expect(entry.subagents).toHaveLength(1);
    expect(entry.subagents[0].tokens.output).toBe(2);
  });

  it('skips a 100 MB line as one bad line and keeps the lines around it', () => {
    const entry = catalog.get(home.root, project.slug, ids.huge)!;
    expect(entry).toMatchObject({ badLines: 1, userPrompts: 2, assistantTurns: 2 });
  });

  it('never holds an over-long line in memory', async () => {
    const oversized: number[] = [];
    let longest = 0;
    const result = await readJsonlLines(join(project.dir, `${ids.huge}.jsonl`), {
      fromOffset: 0,
      maxLineBytes: 1024 * 1024,
      onLine: (line) => (longest = Math.max(longest, line.length)),
      onOversizedLine: (_, bytes) => oversized.push(bytes),
    });
    expect(oversized).toEqual([HUNDRED_MB + '{"type":"user","message":{"role":"user","content":"'.length + 3]);
    expect(longest).toBeLessThan(1024 * 1024);
    expect(result.lines).toBe(5);
  });

  it('lists a metadata-only file and a zero-byte file as empty sessions (the rule `projects` counts by)', () => {
    expect(catalog.get(home.root, project.slug, ids.metadataOnly)).toMatchObject({
      title: null,
      userPrompts: 0,
      firstTimestamp: null,
      badLines: 0,
    });
    expect(catalog.get(home.root, project.slug, seededUuid('bad-empty'))).toMatchObject({
      mainTranscript: true,
      bytes: 0,
      title: null,
      userPrompts: 0,
      assistantTurns: 0,
      badLines: 0,
    });
    expect(catalog.list()).toHaveLength(6);
  });

  it('keeps sessions that share uuids apart', () => {
    expect(catalog.get(home.root, project.slug, ids.duplicateA)!.userPrompts).toBe(1);
    expect(catalog.get(home.root, project.slug, ids.duplicateB)!.userPrompts).toBe(2);
  });
});
