import { describe, expect, it } from 'vitest';
import type { SessionCatalogEntry } from '../../../shared/model/catalog';
import {
  activityByDay,
  EMPTY_FILTER,
  filterIgnoringDates,
  filterSessions,
  sessionDay,
} from '../../../renderer/src/features/sessions/timelineFilter';

const tokens = (n: number) => ({ input: n, output: n, cacheCreation: 0, cacheRead: 0 });

function session(id: string, start: string, more: Partial<SessionCatalogEntry> = {}): SessionCatalogEntry {
  return {
    configRoot: '/root',
    slug: 'proj',
    sessionId: id,
    path: `/root/projects/proj/${id}.jsonl`,
    mainTranscript: true,
    title: `Session ${id}`,
    titleSource: 'ai-title',
    firstTimestamp: start,
    lastTimestamp: start,
    durationMs: 0,
    cwds: ['/work'],
    gitBranches: ['main'],
    versions: ['2.1.128'],
    models: ['claude-sonnet-4-6'],
    userPrompts: 1,
    assistantTurns: 1,
    toolCalls: 0,
    tokens: tokens(10),
    subagents: [],
    compactions: [],
    memoryReads: [],
    memoryWrites: [],
    hasSessionMemory: false,
    archived: false,
    prLinks: [],
    agentName: null,
    mode: null,
    bytes: 100,
    badLines: 0,
    mtime: start,
    ...more,
  };
}

describe('timeline filters and activity', () => {
  const sessions = [
    session('a', '2026-05-01T10:00:00.000Z'),
    session('b', '2026-05-01T12:00:00.000Z', { gitBranches: ['feat/x'], memoryWrites: ['/m/a.md'] }),
    session('c', '2026-05-04T09:00:00.000Z', {
      slug: 'other',
      models: ['claude-opus-4-6'],
      compactions: [{ timestamp: null, trigger: 'auto', preTokens: 1, postTokens: 1 }],
    }),
  ];

  it('narrows by project, branch, model, memory writes, compactions, text and date range', () => {
    const ids = (filter: Partial<typeof EMPTY_FILTER>) => filterSessions(sessions, { ...EMPTY_FILTER, ...filter }).map((s) => s.sessionId);
    expect(ids({})).toEqual(['a', 'b', 'c']);
    expect(ids({ project: '/root\0proj' })).toEqual(['a', 'b']);
    expect(ids({ branch: 'feat/x' })).toEqual(['b']);
    expect(ids({ model: 'claude-opus-4-6' })).toEqual(['c']);
    expect(ids({ withMemoryWrites: true })).toEqual(['b']);
    expect(ids({ withCompactions: true })).toEqual(['c']);
    expect(ids({ text: 'SESSION C' })).toEqual(['c']);
    const day = sessionDay(sessions[2]);
    expect(ids({ from: day, to: day })).toEqual(['c']);
    // The chart ignores the dates, so choosing a day does not empty it.
    expect(filterIgnoringDates(sessions, { ...EMPTY_FILTER, from: day, to: day })).toHaveLength(3);
  });

  it('counts sessions and tokens (sub-agents included) per day, empty days too', () => {
    const withAgent = [
      ...sessions,
      session('d', '2026-05-04T10:00:00.000Z', {
        subagents: [
          {
            agentId: 'x',
            agentType: 'Explore',
            description: null,
            layout: 'subagents-folder',
            path: '/p',
            tokens: tokens(5),
            models: [],
            assistantTurns: 1,
            toolCalls: 0,
            firstTimestamp: null,
            lastTimestamp: null,
            badLines: 0,
            parentAgentId: null,
            depth: 1,
            workflowRunId: null,
          },
        ],
      }),
    ];
    const days = activityByDay(withAgent, 366);
    expect(days.map((d) => d.sessions)).toEqual([2, 0, 0, 2]);
    expect(days.map((d) => d.tokens)).toEqual([40, 0, 0, 50]);
    expect(days[0].day).toBe(sessionDay(sessions[0]));
    expect(activityByDay(withAgent, 2).map((d) => d.day)).toEqual(days.slice(-2).map((d) => d.day));
  });
});
