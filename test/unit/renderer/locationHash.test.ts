import { describe, expect, it } from 'vitest';
import { nextLocation, parseHash, toHash, type AppLocation } from '../../../renderer/src/stores/locationHash';
import { pageTitle } from '../../../renderer/src/stores/pageTitle';

const project = { configRoot: '/home/me/.claude', slug: '-home-me-shop' };
const base: AppLocation = { page: 'memory', project, transcript: null, file: null, agent: null };

describe('the location in the URL hash', () => {
  it('round-trips the page, the project and each page’s selection, odd characters included', () => {
    const locations: AppLocation[] = [
      { ...base, file: 'team/conventions & rules.md' },
      { ...base, page: 'agents', agent: '/work/shop/.claude/agent-memory/qa', file: 'flaky tests.md' },
      { ...base, page: 'transcript', transcript: { sessionId: 'a1b2', line: 42, agentId: 'agent-7', find: null } },
      // A search hit opens its transcript with the searched text to find again.
      { ...base, page: 'transcript', transcript: { sessionId: 'a1b2', line: 7, agentId: null, find: 'café & "quotes"' } },
      { ...base, page: 'warnings' },
      { ...base, page: 'sessions', project: null },
    ];
    for (const location of locations) expect(parseHash(toHash(location))).toEqual(location);
  });

  it('writes a selection only for the page it belongs to', () => {
    expect(toHash({ ...base, page: 'history', file: 'a.md', agent: '/x' })).toBe(
      '#/page=history&root=%2Fhome%2Fme%2F.claude&project=-home-me-shop',
    );
    expect(toHash({ ...base, file: 'reference/a.md' })).toBe(
      '#/page=memory&root=%2Fhome%2Fme%2F.claude&project=-home-me-shop&file=reference%2Fa.md',
    );
    // A caller that knows nothing of selections (a link to a transcript line) still gets a whole hash.
    expect(toHash({ page: 'transcript', project, transcript: { sessionId: 's', line: null, agentId: null, find: null } })).toBe(
      '#/page=transcript&root=%2Fhome%2Fme%2F.claude&project=-home-me-shop&session=s',
    );
  });

  it('falls back on what it does not know', () => {
    expect(parseHash('')).toEqual({ page: 'memory', project: null, transcript: null, file: null, agent: null });
    expect(parseHash('#/page=nowhere&root=/r')).toEqual({ page: 'memory', project: null, transcript: null, file: null, agent: null });
    expect(parseHash('#/page=transcript&root=/r&project=p').page).toBe('memory');
    expect(parseHash('#/page=transcript&root=/r&project=p&session=s&line=-3&find=').transcript).toEqual({
      sessionId: 's',
      line: null,
      agentId: null,
      find: null,
    });
    expect(parseHash('#/page=sessions&root=/r&project=p&file=a.md').file).toBeNull();
    expect(parseHash('#page=memory&file=a.md').file).toBe('a.md');
  });
});

describe('moving from one location to the next', () => {
  it('drops a file selection when the page, the project or the agent changes', () => {
    const open = { ...base, file: 'a.md' };
    expect(nextLocation(open, { page: 'sessions' }).file).toBeNull();
    expect(nextLocation(open, { project: { ...project, slug: 'other' } }).file).toBeNull();
    expect(nextLocation(open, { file: 'b.md' }).file).toBe('b.md');
    expect(nextLocation(open, { page: 'agents', agent: '/a', file: 'x.md' })).toMatchObject({ agent: '/a', file: 'x.md' });
    const agent = { ...base, page: 'agents' as const, agent: '/a', file: 'x.md' };
    expect(nextLocation(agent, { agent: '/b' })).toMatchObject({ agent: '/b', file: null });
    // The Agents page lists every project's agents: choosing a project in the sidebar keeps what is open.
    expect(nextLocation(agent, { project: { ...project, slug: 'other' } })).toMatchObject({ agent: '/a', file: 'x.md' });
    expect(nextLocation(agent, { page: 'memory' })).toMatchObject({ agent: null, file: null });
  });

  it('opens another project’s sessions instead of a transcript it was not asked for', () => {
    const reading = { ...base, page: 'transcript' as const, transcript: { sessionId: 's', line: null, agentId: null, find: null } };
    expect(nextLocation(reading, { project: { ...project, slug: 'other' } }).page).toBe('sessions');
    expect(nextLocation(reading, { project }).page).toBe('transcript');
  });
});

describe('the window title', () => {
  it('names the selection, the page and the project, most specific first', () => {
    expect(pageTitle({ selection: 'reference/grafana.md', page: 'Memory', project: '/work/shop', waiting: 0 })).toBe(
      'reference/grafana.md — Memory — /work/shop — Claude Memory Manager',
    );
    expect(pageTitle({ selection: null, page: 'Settings', project: null, waiting: 0 })).toBe('Settings — Claude Memory Manager');
  });

  it('leads with the number of proposal sets waiting for review', () => {
    expect(pageTitle({ selection: null, page: 'Dreams', project: '/work/shop', waiting: 2 })).toBe(
      '(2) Dreams — /work/shop — Claude Memory Manager',
    );
  });
});
