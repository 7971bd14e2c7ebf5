import { appendFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchHit } from '../../../shared/model/search';
import { TranscriptArchive } from '../../../electron/core/history/archive/TranscriptArchive';
import { HomeSearch } from '../../../electron/core/search/HomeSearch';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid, type SessionFacts } from '../../fixtures/sessionLines';
import { userPrompt } from '../../fixtures/transcriptLines';
import { candidateFor } from './archiveCandidates';

/** About 1 MB of plain words on one line (cheap and deterministic), so a file spans frames and search units. */
function filler(seed: number): string {
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];
  const out: string[] = [];
  let state = seed;
  for (let i = 0; i < 150_000; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out.push(words[state % words.length]);
  }
  return out.join(' ');
}

describe('search over transcripts Claude Code deleted', () => {
  let home: ScenarioHome;
  let session: SessionFacts;
  let archive: TranscriptArchive;
  let search: HomeSearch;

  const find = async (query: string): Promise<SearchHit[]> => {
    const hits: SearchHit[] = [];
    await search.search(query, { onHit: (hit) => hits.push(hit) });
    return hits;
  };

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-archived-search-' });
    const project = home.project(home.workPath('shop'));
    session = await project.session({ turns: 2, prompts: ['Where is the zanzibar flag set?', 'Thanks'] });
    // Planted words between lines of a megabyte each: the archived copy is read across frames and search units.
    for (let i = 0; i < 3; i++) {
      await appendFile(session.file, `${userPrompt(filler(i + 1), { sessionId: session.sessionId, uuid: seededUuid(`f${i}`) })}\n`);
      await appendFile(session.file, `${userPrompt(`marker zanzibar number ${i}`, { sessionId: session.sessionId })}\n`);
    }
    archive = new TranscriptArchive(join(home.tmp, 'data', 'archive'));
    await archive.update([candidateFor({ path: session.file, configRoot: home.root, slug: project.slug, sessionId: session.sessionId })]);
    search = new HomeSearch({ roots: [home.root], archived: () => archive.searchTargets(), workers: 2, unitBytes: 700_000 });
  });

  afterAll(async () => {
    await search.dispose();
    await archive.dispose();
    await home.cleanup();
  });

  it('finds the same lines in the archived copy, marked archived', async () => {
    const before = await find('zanzibar');
    expect(before.filter((hit) => hit.preview.includes('marker zanzibar')).map((hit) => hit.preview)).toEqual([
      'marker zanzibar number 0',
      'marker zanzibar number 1',
      'marker zanzibar number 2',
    ]);
    expect(before.every((hit) => !hit.archived)).toBe(true);
    await rm(session.file);
    const after = await find('zanzibar');
    expect(after).toEqual(before.map((hit) => ({ ...hit, archived: true })));
    expect(after.map((hit) => hit.sessionId)).toEqual(before.map(() => session.sessionId));
  });
});
