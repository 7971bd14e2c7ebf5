import { describe, expect, it } from 'vitest';
import { summarizeAggregate, withSharedEmptyLists } from '../../../../electron/core/catalog/fileSummary';
import { memoryPathMatcher } from '../../../../electron/core/catalog/memoryPathMatcher';
import { TranscriptAggregate } from '../../../../electron/core/catalog/transcriptAggregate';
import { parseTranscriptLine } from '../../../../electron/core/catalog/transcriptLineParser';
import { assistantChunk, userPrompt } from '../../../fixtures/transcriptLines';

function summaryOf(lines: readonly string[]) {
  const aggregate = new TranscriptAggregate(memoryPathMatcher('/home/u/.claude', '/home/u/.claude/projects/-work-app/memory'), false);
  for (const text of lines) {
    const record = parseTranscriptLine(Buffer.from(text));
    if (record) aggregate.add(record);
  }
  return summarizeAggregate(aggregate);
}

describe('withSharedEmptyLists', () => {
  it('gives two summaries one empty list for each list both leave empty, and keeps every value', () => {
    const a = summaryOf([userPrompt('first'), assistantChunk({ messageId: 'msg_a', usage: { input: 1, output: 2 } })]);
    const b = summaryOf([userPrompt('second')]);
    const sharedA = withSharedEmptyLists(a);
    const sharedB = withSharedEmptyLists(b);

    expect(sharedA).toEqual(a);
    expect(sharedB).toEqual(b);
    expect(a.memoryWrites).not.toBe(b.memoryWrites);
    expect(sharedA.memoryWrites).toBe(sharedB.memoryWrites);
    expect(sharedA.compactions).toBe(sharedB.memoryWrites);
    expect(Object.isFrozen(sharedA.memoryWrites)).toBe(true);
    // A list with items stays the summary's own.
    expect(sharedA.models).toBe(a.models);
    expect(sharedA.models).toEqual(['claude-sonnet-4-6']);
  });

  it('hands back the same summary when it has no empty list of its own to share', () => {
    const shared = withSharedEmptyLists(summaryOf([userPrompt('only')]));
    expect(withSharedEmptyLists(shared)).toBe(shared);
  });
});
