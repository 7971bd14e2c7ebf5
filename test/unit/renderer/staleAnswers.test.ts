import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as AgentsStore from '../../../renderer/src/features/agents/agentsStore';
import type * as MemoryReviewStore from '../../../renderer/src/features/memory/memoryReviewStore';
import type * as SearchStore from '../../../renderer/src/features/search/searchStore';
import type { MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import { createStandardScenario, type StandardScenario } from '../../fixtures/scenarioHome';
import { EngineApi } from './support/engineApi';
import { PageWindow } from './support/pageWindow';

let scenario: StandardScenario;
let engine: EngineApi;
let memoryStore: typeof MemoryReviewStore;
let agentsStore: typeof AgentsStore;
let searchStore: typeof SearchStore;

beforeAll(async () => {
  scenario = await createStandardScenario();
  engine = await EngineApi.start(scenario.home);
  new PageWindow('#/page=memory', engine.api).install();
  // Imported after the window is in place: the stores take the Api and the location from it as they load.
  memoryStore = await import('../../../renderer/src/features/memory/memoryReviewStore');
  agentsStore = await import('../../../renderer/src/features/agents/agentsStore');
  searchStore = await import('../../../renderer/src/features/search/searchStore');
});

afterAll(async () => {
  await engine.dispose();
  await scenario.home.cleanup();
});

/** Lets every answer still held through, oldest first, and waits until the stores have taken them. */
async function releaseAll(): Promise<void> {
  for (const answer of engine.held.splice(0)) answer.release();
  await settled();
}

/** Gives the stores a moment to take answers just let through (there is no event to wait for when one is dropped). */
async function settled(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('answers overtaken by a newer question are dropped', () => {
  it('the memory review shows the folder open now, not the one whose review came back late', async () => {
    const project: MemoryFolderRef = { kind: 'project', configRoot: scenario.home.root, slug: scenario.webshop.slug };
    const agent: MemoryFolderRef = { kind: 'agent', dir: scenario.agents.userCodeReviewer.dir };
    engine.holdAnswers(true);
    memoryStore.openFolder(project);
    await waitUntil(() => engine.held.length === 1);
    const slow = engine.held.splice(0);
    engine.holdAnswers(false);
    memoryStore.openFolder(agent);
    await waitUntil(() => memoryStore.useMemoryReviewStore.getState().review !== null);
    const shown = memoryStore.useMemoryReviewStore.getState().review;
    for (const answer of slow) answer.release();
    await settled();
    const state = memoryStore.useMemoryReviewStore.getState();
    expect(state.folder).toEqual(agent);
    expect(state.review).toBe(shown);
    expect(state.review?.files.map((file) => file.relativePath)).not.toContain('user_prefers_pnpm.md');
    expect(state.loading).toBe(false);
  });

  it('the agent list keeps the newer answer when an older one arrives after it', async () => {
    engine.holdAnswers(true);
    const older = agentsStore.loadAgents();
    await waitUntil(() => engine.held.length === 1);
    // A new agent memory appears between the two questions: only the newer answer knows it.
    await scenario.home.agentMemory('user', 'release-notes', { 'MEMORY.md': '- [Tone](tone.md) — plain words\n' });
    engine.holdAnswers(false);
    await agentsStore.loadAgents();
    const newer = agentsStore.useAgentsStore.getState().agents;
    await releaseAll();
    await older;
    expect(agentsStore.useAgentsStore.getState().agents).toBe(newer);
    expect(newer?.some((agent) => agent.dir.endsWith('release-notes'))).toBe(true);
    expect(newer?.length).toBe(3);
  });

  it('a late answer nobody overtook is taken', async () => {
    engine.holdAnswers(true);
    const only = agentsStore.loadAgents();
    await waitUntil(() => engine.held.length === 1);
    expect(agentsStore.useAgentsStore.getState().loading).toBe(true);
    engine.holdAnswers(false);
    await releaseAll();
    await only;
    const state = agentsStore.useAgentsStore.getState();
    expect(state.loading).toBe(false);
    expect(state.agents?.map((agent) => agent.dir)).toEqual(
      expect.arrayContaining([scenario.agents.userCodeReviewer.dir, scenario.agents.projectQa.dir]),
    );
  });

  it('search keeps the search it shows when the answer to the one before it comes back last', async () => {
    engine.holdAnswers(true);
    const first = searchStore.startSearch('refund path');
    await waitUntil(() => engine.held.length === 1);
    const second = searchStore.startSearch('cart total');
    await waitUntil(() => engine.held.length === 2);
    engine.holdAnswers(false);
    const [firstAnswer, secondAnswer] = engine.held.splice(0);
    secondAnswer.release();
    await second;
    await waitUntil(() => !searchStore.useSearchStore.getState().running);
    const shown = searchStore.useSearchStore.getState();
    expect(shown.hits.length).toBeGreaterThan(0);
    firstAnswer.release();
    await first;
    await settled();
    const state = searchStore.useSearchStore.getState();
    expect(state.query).toBe('cart total');
    // The id names the search whose hits are shown: Stop cancels that one, and its late hits are the ones taken.
    expect(state.searchId).toBe(shown.searchId);
    expect(state.hits).toBe(shown.hits);
  });
});

/** Waits for what the stores do on their own (a request sent, an answer taken), at most 10 s. */
async function waitUntil(condition: () => boolean): Promise<void> {
  for (let tries = 0; !condition(); tries++) {
    if (tries > 200) throw new Error('waited 10 s for the stores');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
