import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchHit } from '../../../shared/model/search';
import { HomeSearch } from '../../../electron/core/search/HomeSearch';
import { createScenarioHome, topicFile, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { assistantChunk, toolUse, userPrompt } from '../../fixtures/transcriptLines';

async function collect(search: HomeSearch, query: string, limit?: number): Promise<SearchHit[]> {
  const hits: SearchHit[] = [];
  await search.search(query, { limit, onHit: (hit) => hits.push(hit) });
  return hits;
}

describe('HomeSearch over transcripts and memory files', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let search: HomeSearch;
  const older = seededUuid('search-older');
  const newer = seededUuid('search-newer');

  beforeAll(async () => {
    home = await createScenarioHome();
    project = home.project(home.workPath('shop'));
    await project.rawFile(
      `${older}.jsonl`,
      `${[userPrompt('Where is the Zebrafish config?', { sessionId: older }), assistantChunk({ sessionId: older, messageId: 'o1', usage: { output: 1 }, block: { type: 'text', text: 'No zebrafish here.\nBut "quoted zebrafish" is.' } })].join('\n')}\n`,
      { mtime: '2026-05-01T00:00:00.000Z' },
    );
    await project.rawFile(
      `${newer}.jsonl`,
      `${[
        userPrompt('unrelated', { sessionId: newer }),
        userPrompt('zebrafish again, twice: zebrafish', { sessionId: newer }),
        // A base64 image that happens to contain the letters is not a hit.
        JSON.stringify({
          type: 'user',
          message: {
            role: 'user',
            content: [{ type: 'image', source: { type: 'base64', data: `${'QUJD'.repeat(40)}zebrafish${'QUJD'.repeat(40)}` } }],
          },
        }),
        assistantChunk({
          sessionId: newer,
          messageId: 'n1',
          usage: { output: 1 },
          block: toolUse('t', 'Write', { file_path: '/x', content: 'é 中 zebrafish 🧪' }),
        }),
      ].join('\n')}\n`,
      { mtime: '2026-05-03T00:00:00.000Z' },
    );
    await project.rawFile(
      `${newer}/subagents/agent-asub.jsonl`,
      `${userPrompt('sub-agent on zebrafish', { sessionId: newer, isSidechain: true })}\n`,
      {
        mtime: '2026-05-02T00:00:00.000Z',
      },
    );
    await project.memory(
      'project_fish.md',
      topicFile({ variant: 'flat', name: 'Fish', description: 'x', type: 'project', body: 'Line one\nThe ZEBRAFISH tank is in room 4.\n' }),
      {
        mtime: '2026-05-04T00:00:00.000Z',
      },
    );
    search = new HomeSearch({ roots: [home.root] });
  });
  afterAll(async () => {
    await search.dispose();
    await home.cleanup();
  });

  it('finds every line once, newest file first, ignoring ASCII case, with readable previews', async () => {
    const before = await snapshotTree(home.root);
    const hits = await collect(search, 'zebrafish');
    expect(hits.map((h) => [h.kind, h.sessionId, h.agentId, h.line])).toEqual([
      ['memory', null, null, 7],
      ['transcript', newer, null, 2],
      ['transcript', newer, null, 4],
      ['transcript', newer, 'asub', 1],
      ['transcript', older, null, 1],
      ['transcript', older, null, 2],
    ]);
    expect(hits[0]).toMatchObject({ path: join(project.memoryDir, 'project_fish.md'), slug: project.slug, configRoot: home.root });
    expect(hits[0].preview).toBe('The ZEBRAFISH tank is in room 4.');
    expect(hits[0].preview.slice(hits[0].matchStart, hits[0].matchStart + hits[0].matchLength)).toBe('ZEBRAFISH');
    expect(hits[2].preview).toBe('é 中 zebrafish 🧪');
    // JSON escapes are shown as text: the newline and the quotes.
    expect(hits[5].preview).toBe('No zebrafish here. But "quoted zebrafish" is.');
    expect(await snapshotTree(home.root)).toEqual(before);
  });

  it('finds text with quotes as it was written, stops at the limit, and can be cancelled', async () => {
    expect((await collect(search, '"quoted zebrafish"')).map((h) => [h.sessionId, h.line])).toEqual([[older, 2]]);
    expect(await collect(search, 'zebrafish', 2)).toHaveLength(2);
    const controller = new AbortController();
    controller.abort();
    const summary = await search.search('zebrafish', { signal: controller.signal });
    expect(summary).toMatchObject({ hitCount: 0, cancelled: true });
    expect(await collect(search, 'no such text anywhere')).toEqual([]);
  });

  it('takes every character of the query literally, regular-expression characters included', async () => {
    expect((await collect(search, 'zebrafish TANK is in room 4.')).map((h) => h.preview)).toEqual(['The ZEBRAFISH tank is in room 4.']);
    expect(await collect(search, 'room 4?')).toEqual([]);
    expect(await collect(search, 'zebra.ish')).toEqual([]);
    expect(await collect(search, 'room [4]')).toEqual([]);
    expect((await collect(search, '中 zebrafish')).map((h) => h.preview)).toEqual(['é 中 zebrafish 🧪']);
  });

  it('numbers lines right when a big file is scanned in parallel ranges', async () => {
    const bigId = seededUuid('search-big');
    const lines: string[] = [];
    for (let i = 0; i < 4000; i++)
      lines.push(userPrompt(i % 997 === 5 ? `needle-${i} ü` : `filler line ${i} ${'ü'.repeat(i % 50)}`, { sessionId: bigId }));
    await writeFile(join(project.dir, `${bigId}.jsonl`), `${lines.join('\n')}\n`);
    const small = new HomeSearch({ roots: [home.root], unitBytes: 64 * 1024 });
    const hits = await collect(small, 'needle-');
    await small.dispose();
    expect(hits.map((h) => h.line)).toEqual([6, 1003, 2000, 2997, 3994]);
    expect(hits.map((h) => h.preview)).toEqual(['needle-5 ü', 'needle-1002 ü', 'needle-1999 ü', 'needle-2996 ü', 'needle-3993 ü']);
  });
  it('finds a match that straddles the 1 MiB boundary between two chunk reads, in any ASCII case', async () => {
    const id = seededUuid('search-chunks');
    const CHUNK = 1024 * 1024;
    const variants = ['StraddleWord', 'straddleword', 'STRADDLEWORD', 'sTrAdDlEwOrD'];
    const lines: string[] = [];
    let bytes = 0;
    // Lines of filler, then a line placed so the word crosses each boundary at a different cut.
    for (const [index, variant] of variants.entries()) {
      const boundary = (index + 1) * CHUNK;
      while (bytes < boundary - 4000) {
        const line = userPrompt(`filler ${'é'.repeat(lines.length % 40)} ${lines.length}`, { sessionId: id });
        lines.push(line);
        bytes += Buffer.byteLength(line) + 1;
      }
      const head = JSON.stringify({ type: 'user', sessionId: id, message: { role: 'user', content: 'x' } }).slice(0, -4);
      const padTo = boundary - bytes - Buffer.byteLength(head) - (index + 1) * 2;
      // Spaces in the padding: a long run of letters would read as base64 data, which search skips.
      const line = `${head}${'p '.repeat(padTo).slice(0, padTo)}${variant} end"}}`;
      lines.push(line);
      bytes += Buffer.byteLength(line) + 1;
    }
    await project.rawFile(`${id}.jsonl`, `${lines.join('\n')}\n`, { mtime: '2026-05-05T00:00:00.000Z' });
    const hits = await collect(search, 'straddleWORD');
    const expected = lines.flatMap((line, index) => (line.toLowerCase().includes('straddleword') ? [index + 1] : []));
    expect(expected).toHaveLength(variants.length);
    expect(hits.filter((hit) => hit.sessionId === id).map((hit) => hit.line)).toEqual(expected);
  });
});
