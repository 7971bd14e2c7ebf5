import { beforeAll, describe, expect, it } from 'vitest';
import type * as NavigationStore from '../../../renderer/src/stores/navigationStore';
import { PageWindow } from './support/pageWindow';

const opened = '#/page=memory&root=%2Fhome%2Fme%2F.claude&project=-home-me-shop&file=team%2Frules.md';
const page = new PageWindow(opened);
let store: typeof NavigationStore;

beforeAll(async () => {
  page.install();
  // The store reads the location when it is first imported, as it does when the page loads.
  store = await import('../../../renderer/src/stores/navigationStore');
});

describe('the navigation store and the URL hash', () => {
  it('starts where the link or the reload points', () => {
    expect(store.useNavigationStore.getState()).toEqual({
      page: 'memory',
      project: { configRoot: '/home/me/.claude', slug: '-home-me-shop' },
      transcript: null,
      file: 'team/rules.md',
      agent: null,
    });
  });

  it('pushes one history entry for each move, and none for a move to where it already is', () => {
    store.navigate({ page: 'history' });
    expect(page.location.hash).toBe('#/page=history&root=%2Fhome%2Fme%2F.claude&project=-home-me-shop');
    store.navigate({ page: 'history' });
    expect(page.entries).toHaveLength(2);
    expect(store.useNavigationStore.getState().page).toBe('history');
  });

  it('opens a transcript line with its project, and the back button goes back to where it came from', () => {
    store.openTranscript({ configRoot: '/home/me/.claude', slug: '-home-me-api', sessionId: 's-1', line: 7 });
    expect(store.useNavigationStore.getState()).toMatchObject({
      page: 'transcript',
      project: { configRoot: '/home/me/.claude', slug: '-home-me-api' },
      transcript: { sessionId: 's-1', line: 7, agentId: null },
    });
    page.back();
    expect(store.useNavigationStore.getState()).toMatchObject({ page: 'history', project: { slug: '-home-me-shop' }, transcript: null });
    page.back();
    // The selection the page was opened with comes back with its page.
    expect(store.useNavigationStore.getState()).toMatchObject({ page: 'memory', file: 'team/rules.md' });
  });

  it('links a transcript line by the page’s own address, which opens the same line', async () => {
    const link = store.transcriptLink({ configRoot: '/home/me/.claude', slug: '-home-me-api', sessionId: 's-1', line: 9, agentId: 'a-2' });
    expect(link.startsWith('http://127.0.0.1:4173/#/page=transcript&')).toBe(true);
    const { parseHash } = await import('../../../renderer/src/stores/locationHash');
    expect(parseHash(link.slice(link.indexOf('#')))).toMatchObject({ transcript: { sessionId: 's-1', line: 9, agentId: 'a-2' } });
  });
});
