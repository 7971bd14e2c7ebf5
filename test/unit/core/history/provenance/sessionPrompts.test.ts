import { describe, expect, it } from 'vitest';
import { SessionPrompts } from '../../../../../electron/core/history/provenance/sessionPrompts';
import type { TranscriptRef } from '../../../../../electron/core/history/provenance/transcriptFeed';

function ref(path: string, sessionId: string, agentId: string | null = null): TranscriptRef {
  return { path, configRoot: '/c', slug: 'p', sessionId, agentId, size: 1, mtimeMs: 0 };
}

const mainA = ref('/p/a.jsonl', 'a');
const agentA1 = ref('/p/a/subagents/agent-1.jsonl', 'a', '1');
const agentA2 = ref('/p/a/subagents/agent-2.jsonl', 'a', '2');
const mainB = ref('/p/b.jsonl', 'b');
const agentB = ref('/p/b/subagents/agent-3.jsonl', 'b', '3');
const mainC = ref('/p/c.jsonl', 'c');

describe('SessionPrompts', () => {
  it('reads a session at a time, its main file before its sub-agents', () => {
    const refs = [agentB, mainC, agentA2, mainB, agentA1, mainA];
    expect(new SessionPrompts(refs).readingOrder(refs)).toEqual([mainA, agentA1, agentA2, mainB, agentB, mainC]);
  });

  it('reads every main file first when a sub-agent file does not say its session', () => {
    const sibling = ref('/p/agent-9.jsonl', '', '9');
    const refs = [agentB, sibling, mainB, agentA1, mainA];
    expect(new SessionPrompts(refs).readingOrder(refs)).toEqual([mainA, mainB, agentA1, sibling, agentB]);
  });

  it('keeps a session’s prompts until its last sub-agent file is read, and none of a session without sub-agents', () => {
    const prompts = new SessionPrompts([mainA, agentA1, agentA2, mainC]);
    prompts.add('a', { uuid: 'u1', timeMs: 10 });
    prompts.add('a', { uuid: 'u2', timeMs: 20 });
    prompts.add('c', { uuid: 'u3', timeMs: 10 });
    expect(prompts.latestAtOrBefore('a', 15)?.uuid).toBe('u1');
    expect(prompts.latestAtOrBefore('a', 25)?.uuid).toBe('u2');
    expect(prompts.latestAtOrBefore('a', 5)).toBeNull();
    expect(prompts.latestAtOrBefore('c', 15)).toBeNull();

    prompts.done(mainA);
    prompts.done(agentA1);
    expect(prompts.latestAtOrBefore('a', 25)?.uuid).toBe('u2');
    prompts.done(agentA2);
    expect(prompts.latestAtOrBefore('a', 25)).toBeNull();
  });

  it('keeps every prompt when a sub-agent file does not say its session', () => {
    const prompts = new SessionPrompts([mainC, ref('/p/agent-9.jsonl', '', '9')]);
    prompts.add('c', { uuid: 'u3', timeMs: 10 });
    prompts.done(mainC);
    expect(prompts.latestAtOrBefore('c', 15)?.uuid).toBe('u3');
  });
});
