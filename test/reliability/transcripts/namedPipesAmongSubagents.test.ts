import { execFileSync, spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { TranscriptService } from '../../../electron/core/transcripts/TranscriptService';
import { LIVE_VIEW } from '../../../shared/transcript/transcriptOutline';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { createTestHomeService } from '../../fixtures/testEngine';
import { userPrompt } from '../../fixtures/transcriptLines';

/**
 * The outline reads sub-agents' small files with blocking calls. A named pipe where Claude Code keeps a sub-agent
 * transcript, its meta.json or a 2.0 sibling agent file must not hold the engine's thread until something writes to it.
 */
describe.skipIf(process.platform === 'win32')('named pipes among a session’s sub-agent files', () => {
  const homes: ScenarioHome[] = [];
  afterAll(async () => {
    for (const home of homes) await home.cleanup();
  });

  it('are passed over, and the real sub-agent beside them is linked', async () => {
    const home = await createScenarioHome({ prefix: 'ccmem-fifo-' });
    homes.push(home);
    const project = home.project(home.workPath('pipes'));
    const sessionId = seededUuid('fifo-session');
    const envelope = { cwd: project.cwd, version: '2.1.90', sessionId };
    await project.rawFile(`${sessionId}.jsonl`, `${userPrompt('Look around', { ...envelope, uuid: seededUuid('f0') })}\n`);
    await project.rawFile(
      `${sessionId}/subagents/agent-areal.jsonl`,
      `${userPrompt('Scan', { ...envelope, uuid: seededUuid('f1'), isSidechain: true })}\n`,
    );
    const subagents = `${project.dir}/${sessionId}/subagents`;
    const pipes = [`${subagents}/agent-apipe.jsonl`, `${subagents}/agent-areal.meta.json`, `${project.dir}/agent-asibling.jsonl`];
    execFileSync('mkfifo', pipes);
    // A writer opens each pipe after a while, so a read that waits on one ends (and the test fails on its time)
    // instead of holding the test's thread for good.
    const writer = spawn('sh', ['-c', 'sleep 3; for pipe in "$@"; do (: > "$pipe") & done; wait', 'sh', ...pipes], {
      detached: true,
      stdio: 'ignore',
    });
    try {
      const service = new TranscriptService(createTestHomeService(home, { readOnly: true }), null);
      const started = performance.now();
      const outline = await service.outline({ configRoot: home.root, slug: project.slug, sessionId }, LIVE_VIEW);
      expect(performance.now() - started).toBeLessThan(2000);
      expect(outline.subagents.map((agent) => agent.agentId)).toEqual(['areal']);
      expect(outline.subagents[0].firstTimestamp).toEqual(expect.any(String));
      service.dispose();
    } finally {
      process.kill(-(writer.pid as number), 'SIGKILL');
    }
  }, 10_000);
});
