import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLinesBackward } from '../../../../../electron/core/history/attribution/backwardLineReader';
import { LineNumbers } from '../../../../../electron/core/history/attribution/lineNumbers';
import {
  eventsOfRecord,
  mayHoldEvent,
  roughTimeOf,
  type TranscriptFileRef,
} from '../../../../../electron/core/history/attribution/transcriptEvents';
import { collectTranscriptEvents } from '../../../../../electron/core/history/attribution/transcriptEvidence';
import { memorySavedLine, promptLine, toolUseLine, turnDurationLine } from '../../../../integration/history/historyFixtures';

let dir: string;
const ref = (path: string): TranscriptFileRef => ({ path, configRoot: '/c', slug: '-p', sessionId: 's1', agentId: null });
const base = { sessionId: 's1', cwd: '/p' };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ccmem-evidence-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('readLinesBackward', () => {
  it('delivers every line newest first with its offset, across chunk borders, and skips overlong ones', async () => {
    const lines = ['first', 'x'.repeat(1_500_000), 'third', 'y'.repeat(9 * 1024 * 1024), 'fifth', 'partial tail'];
    const text = lines.join('\n');
    const path = join(dir, 'lines.jsonl');
    await writeFile(path, text);
    const seen: { text: string; offset: number }[] = [];
    const result = await readLinesBackward(path, {
      maxBytes: Number.MAX_SAFE_INTEGER,
      onLine: (line, offset) => {
        seen.push({ text: line.toString('utf8'), offset });
        return true;
      },
    });
    expect(result.capped).toBe(false);
    expect(seen.map((s) => s.text.slice(0, 12))).toEqual(['partial tail', 'fifth', 'third', 'x'.repeat(12), 'first']);
    for (const s of seen) expect(text.slice(s.offset, s.offset + s.text.length)).toBe(s.text);
  });

  it('stops when told to, and at the byte cap', async () => {
    const path = join(dir, 'stop.jsonl');
    await writeFile(path, 'a\nb\nc\nd\n');
    const seen: string[] = [];
    await readLinesBackward(path, { maxBytes: 100, onLine: (line) => (seen.push(line.toString()), seen.length < 2) });
    expect(seen).toEqual(['d', 'c']);
    const capped: string[] = [];
    const result = await readLinesBackward(path, { maxBytes: 4, onLine: (line) => (capped.push(line.toString()), true) });
    expect(result.capped).toBe(true);
    expect(capped).toEqual(['d']);
  });
});

describe('transcript events', () => {
  const time = new Date('2026-06-01T12:00:00.000Z');

  it('reads Write, Edit, MultiEdit and removing shell calls, memory_saved, turn ends and typed prompts', () => {
    const records = [
      toolUseLine({ ...base, time }, 'Write', { file_path: '/m/a.md', content: 'hello' }),
      toolUseLine({ ...base, time }, 'MultiEdit', {
        file_path: '/m/b.md',
        edits: [{ old_string: 'a', new_string: 'b' }, { new_string: 'c' }],
      }),
      toolUseLine({ ...base, time }, 'Bash', { command: 'rm /m/c.md' }),
      toolUseLine({ ...base, time }, 'Bash', { command: 'ls /m' }),
      memorySavedLine({ ...base, time }, ['/m/a.md'], 'Improved'),
      turnDurationLine({ ...base, time }),
      promptLine({ ...base, time }, 'Please remember this'),
      promptLine({ ...base, time }, '<command-name>/clear</command-name>'),
    ].map((line) => JSON.parse(line) as Record<string, unknown>);
    const events = records.flatMap((record, index) => eventsOfRecord(record, ref('/t.jsonl'), index));
    expect(events.map((e) => e.kind)).toEqual(['tool-write', 'tool-write', 'tool-shell', 'memory-saved', 'turn-end', 'prompt']);
    expect(events[0]).toMatchObject({
      tool: 'Write',
      filePath: '/m/a.md',
      contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      timeMs: time.getTime(),
    });
    expect(events[1]).toMatchObject({ tool: 'MultiEdit', newStrings: ['b', 'c'], contentHash: null });
    expect(events[3]).toMatchObject({ writtenPaths: ['/m/a.md'], verb: 'Improved' });
  });

  it('skips lines cheaply: only lines that may hold an event are parsed', () => {
    expect(mayHoldEvent(Buffer.from(toolUseLine({ ...base, time }, 'Read', { file_path: '/x' })))).toBe(true);
    expect(mayHoldEvent(Buffer.from('{"type":"user","message":{"content":[{"type":"tool_result"}]}}'))).toBe(false);
    expect(mayHoldEvent(Buffer.from('{"type":"ai-title","aiTitle":"x"}'))).toBe(false);
    expect(roughTimeOf(Buffer.from(turnDurationLine({ ...base, time })))).toBe(time.getTime());
    expect(eventsOfRecord({ type: 'assistant', message: 'not an object' }, ref('/t'), 0)).toEqual([]);
  });

  it('collects the events of a window from the end of a transcript, and numbers their lines', async () => {
    const path = join(dir, 's1.jsonl');
    const at = (minutes: number) => new Date(time.getTime() + minutes * 60_000);
    const lines = [
      promptLine({ ...base, time: at(0) }, 'old prompt'),
      toolUseLine({ ...base, time: at(1) }, 'Write', { file_path: '/m/old.md', content: 'old' }),
      promptLine({ ...base, time: at(60) }, 'new prompt'),
      toolUseLine({ ...base, time: at(61) }, 'Edit', { file_path: '/m/new.md', old_string: 'a', new_string: 'b' }),
      turnDurationLine({ ...base, time: at(62) }),
    ];
    await writeFile(path, `${lines.join('\n')}\n`);
    const events = await collectTranscriptEvents([ref(path)], { fromMs: at(30).getTime(), toMs: at(120).getTime() });
    expect(events.map((e) => e.kind)).toEqual(['prompt', 'tool-write', 'turn-end']);
    const numbers = new LineNumbers();
    expect(await numbers.lineAt(path, events[1].offset)).toBe(4);
    expect(await numbers.lineAt(path, events[0].offset)).toBe(3);
    expect(await numbers.lineAt(path, events[2].offset)).toBe(5);
  });
});
