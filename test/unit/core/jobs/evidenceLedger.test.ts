import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvidenceLedger } from '../../../../electron/core/jobs/evidenceLedger';
import { readMemoryBaseline } from '../../../../electron/core/jobs/memoryBaseline';
import { StagingOverlay } from '../../../../electron/core/jobs/StagingOverlay';
import { createScenarioHome, type ScenarioHome } from '../../../fixtures/scenarioHome';
import type { SessionFacts } from '../../../fixtures/sessionLines';

const signal = new AbortController().signal;

describe('checking what a proposal cites', () => {
  let home: ScenarioHome;
  let session: SessionFacts;
  let promptLine: number;
  let ledger: EvidenceLedger;
  let memoryDir: string;
  let transcriptDir: string;

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-evidence-' });
    const project = home.project(home.workPath('shop'));
    session = await project.session({ turns: 1, prompts: ['We deploy on Fridays   after the “release” review'] });
    await project.memory('feedback_deploys.md', 'Deploys happen on Thursdays.\nAsk the release manager first.\n');
    promptLine = (await fs.readFile(session.file, 'utf8')).split('\n').findIndex((line) => line.includes('We deploy on Fridays')) + 1;
    memoryDir = project.memoryDir;
    transcriptDir = project.dir;
    const overlay = new StagingOverlay(await readMemoryBaseline(memoryDir));
    // A file the job itself staged is no source: only the memory as it was counts.
    overlay.write('notes.md', 'We deploy on Fridays.\n');
    ledger = new EvidenceLedger({ memoryDir, transcriptDir }, overlay);
  });
  afterAll(() => home.cleanup());

  it('verifies a quote on the cited transcript line, ignoring case, spacing and typographic quotes', async () => {
    const note = await ledger.record(
      'feedback_deploys.md',
      [{ source: session.sessionId, line: promptLine, quote: 'we deploy on fridays after the "release" review' }],
      signal,
    );
    expect(note).toBe('');
    expect(ledger.citationsFor('feedback_deploys.md')).toEqual([
      {
        sessionId: session.sessionId,
        agentId: null,
        file: null,
        line: promptLine,
        text: 'we deploy on fridays after the "release" review',
        lineText: '[user] We deploy on Fridays after the “release” review',
        verified: true,
        problem: null,
      },
    ]);
  });

  it('flags a quote the line does not hold, a line that does not exist, a quote too short to prove anything', async () => {
    const note = await ledger.record(
      'a.md',
      [
        { source: `@transcripts/${session.sessionId}.jsonl`, line: promptLine, quote: 'we deploy on Mondays' },
        { source: session.sessionId, line: 9999, quote: 'we deploy on Fridays' },
        { source: session.sessionId, line: promptLine, quote: 'we' },
      ],
      signal,
    );
    expect(ledger.citationsFor('a.md').map((e) => [e.verified, e.problem])).toEqual([
      [false, 'the line does not contain the quoted text'],
      [false, 'the transcript has no such line (or it is too long to read)'],
      [false, 'the quote is too short to check'],
    ]);
    expect(note).toContain('3 citation(s) could not be verified');
  });

  it('checks memory citations against the memory as the job found it, never its own staged text', async () => {
    await ledger.record(
      'b.md',
      [
        { source: 'feedback_deploys.md', line: 2, quote: 'ask the release manager' },
        { source: join(memoryDir, 'feedback_deploys.md'), line: 1, quote: 'on Fridays' },
        { source: 'notes.md', line: 1, quote: 'We deploy on Fridays' },
        { source: 'feedback_deploys.md', line: 7, quote: 'anything' },
      ],
      signal,
    );
    expect(ledger.citationsFor('b.md').map((e) => [e.file, e.line, e.verified, e.problem])).toEqual([
      ['feedback_deploys.md', 2, true, null],
      ['feedback_deploys.md', 1, false, 'the line does not contain the quoted text'],
      ['notes.md', 1, false, 'no such memory file when the job started'],
      ['feedback_deploys.md', 7, false, 'the file has 2 lines'],
    ]);
  });

  it('refuses sources outside the memory and transcripts, and transcripts that are not sessions', async () => {
    await fs.writeFile(join(transcriptDir, 'notes.txt'), 'We deploy on Fridays\n');
    await ledger.record(
      'c.md',
      [
        { source: '/etc/passwd', line: 1, quote: 'root:x:0:0' },
        { source: '@transcripts/notes.txt', line: 1, quote: 'We deploy on Fridays' },
        { source: `@transcripts/${session.sessionId}/subagents/agent-a1.jsonl`, line: 1, quote: 'We deploy' },
      ],
      signal,
    );
    expect(ledger.citationsFor('c.md').map((e) => [e.sessionId, e.agentId, e.verified, e.problem])).toEqual([
      [null, null, false, 'outside the memory folder'],
      [null, null, false, 'not a session transcript (<session>.jsonl or <session>/subagents/agent-<id>.jsonl)'],
      [session.sessionId, 'a1', false, 'the transcript cannot be read'],
    ]);
  });

  it('asks the model to cite when it cites nothing, and goes back to a checkpoint', async () => {
    const checkpoint = ledger.checkpoint();
    expect(await ledger.record('d.md', [], signal)).toContain('this change cites no source');
    await ledger.record('d.md', [{ source: 'feedback_deploys.md', line: 2, quote: 'release manager' }], signal);
    // The same citation twice is kept once.
    await ledger.record('d.md', [{ source: 'feedback_deploys.md', line: 2, quote: 'release manager' }], signal);
    expect(ledger.citationsFor('d.md')).toHaveLength(1);
    ledger.restore(checkpoint);
    expect(ledger.citationsFor('d.md')).toEqual([]);
    expect(ledger.citationsFor('feedback_deploys.md')).toHaveLength(1);
  });
});
