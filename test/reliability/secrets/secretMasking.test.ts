import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/main';
import { SecretScanner } from '../../../electron/core/secrets/secretScan';
import { SHELL_CAPABILITIES } from '../../../shared/contract/capabilities';
import { dispatchRequest } from '../../../shared/contract/dispatch';
import type { SearchHit } from '../../../shared/model/search';
import { topicFile } from '../../fixtures/scenarioHome';
import { textTurn, toolUseTurn } from '../../helpers/fakeAnthropicServer';
import { createJobWorld, type JobWorld } from '../../integration/jobs/jobWorld';
import { recordFigure } from '../support/figureLog';
import { plantedSecrets, type CorpusEntry } from '../support/secretCorpus';

/** Pieces of a secret that must not be readable anywhere it is shown: every 20 characters of each of its lines. */
function pieces(secret: string): string[] {
  const out: string[] = [];
  for (const line of secret.split('\n')) {
    if (line.includes('-----')) continue;
    if (line.length <= 20) out.push(line);
    else for (let at = 0; at + 20 <= line.length; at += 4) out.push(line.slice(at, at + 20));
  }
  return out.filter((piece) => piece.length >= 12);
}

/** The secrets whose pieces can be read in `shown`. */
function leaks(shown: string, secrets: readonly CorpusEntry[]): string[] {
  return secrets.filter((entry) => pieces(entry.secret).some((piece) => shown.includes(piece))).map((entry) => entry.rule);
}

describe('secrets are masked wherever text is shown, and revealed only by the desktop app', () => {
  let world: JobWorld;
  /** The planted secrets the app's detector finds in their line (masking can only be as good as detection). */
  let secrets: CorpusEntry[];
  let tried = 0;
  const web = { readOnly: false };
  const desktop = { readOnly: false, capabilities: new Set(SHELL_CAPABILITIES) };
  const folder = () => ({ kind: 'project' as const, configRoot: world.home.root, slug: world.project.slug });

  beforeAll(async () => {
    world = await createJobWorld();
    const scanner = new SecretScanner();
    secrets = [];
    for (const [index, entry] of plantedSecrets.entries()) {
      if ((await scanner.scan(`planted-${index}`, entry.text)).length > 0) secrets.push(entry);
    }
    for (const [index, entry] of secrets.entries()) {
      await world.project.memory(
        `reference_secret_${index}.md`,
        topicFile({
          variant: 'flat',
          name: `Secret ${index}`,
          description: `Where secret ${index} lives`,
          type: 'reference',
          body: `needle-${index} ${entry.text}\n`,
        }),
      );
    }
    // A token that names itself: the detector finds it without the words around it.
    const token = secrets.find((entry) => entry.rule === 'github')!.secret;
    await world.project.memory(
      'reference_described.md',
      topicFile({ variant: 'flat', name: 'Described', description: `Deploy with ${token}`, type: 'reference', body: 'x\n' }),
    );
    await world.project.memoryIndex(`- [Deploy](reference_described.md) — token ${token}\n`);
    await world.project.session({ turns: secrets.length, prompts: secrets.map((entry, index) => `needle-t${index} ${entry.text}`) });
  });

  afterAll(async () => {
    recordFigure('badInputs', { tried }, 'secrets');
    await world.cleanup();
  });

  it('masks search previews, in the CLI and in the app, without losing the hits', async () => {
    const env = { HOME: world.home.tmp, CLAUDE_CONFIG_DIR: world.home.root, CCMEM_DATA_DIR: world.dataDir };
    const queries = ['needle', ...secrets.filter((e) => e.secret.includes('\n')).map((e) => e.secret.split('\n')[2].slice(5, 15))];
    for (const query of queries) {
      let stdout = '';
      const code = await runCli(['search', query, '--json', '--limit', '1000'], {
        stdout: (t) => (stdout += t),
        stderr: () => undefined,
        env,
      });
      expect(code).toBe(0);
      const previews = (JSON.parse(stdout) as { preview: string }[]).map((hit) => hit.preview);
      tried += previews.length;
      expect(previews.length, query).toBeGreaterThan(0);
      expect(leaks(previews.join('\n'), secrets), `ccmem search ${query}`).toEqual([]);
    }
    const hits: SearchHit[] = [];
    const done = new Promise<void>((resolve) => {
      world.engine.search.onDidFindHits((event) => hits.push(...event.hits));
      world.engine.search.onDidFinish(() => resolve());
    });
    expect(await dispatchRequest(world.engine.handlers, 'startSearch', { query: 'needle', limit: 1000 }, web)).toMatchObject({ ok: true });
    await done;
    expect(hits.filter((hit) => hit.kind === 'memory')).toHaveLength(secrets.length);
    expect(hits.filter((hit) => hit.kind === 'transcript').length).toBeGreaterThanOrEqual(secrets.length);
    expect(leaks(hits.map((hit) => hit.preview).join('\n'), secrets)).toEqual([]);
  });

  it('masks every tab of a memory file and the review; only the desktop app reveals, on request', async () => {
    const review = await dispatchRequest(world.engine.handlers, 'getMemoryReview', { folder: folder() }, web);
    expect(review.ok).toBe(true);
    expect(leaks(JSON.stringify(review), secrets)).toEqual([]);
    for (const index of secrets.keys()) {
      const relativePath = `reference_secret_${index}.md`;
      tried++;
      const shown = await dispatchRequest(world.engine.handlers, 'readMemoryFile', { folder: folder(), relativePath }, web);
      expect(shown).toMatchObject({ ok: true, value: { secretsMasked: expect.any(Number) as number } });
      expect(leaks(JSON.stringify(shown), [secrets[index]]), relativePath).toEqual([]);
      const revealInWeb = await dispatchRequest(
        world.engine.handlers,
        'readMemoryFile',
        { folder: folder(), relativePath, revealSecrets: true },
        web,
      );
      expect(revealInWeb).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      const revealed = await dispatchRequest(
        world.engine.handlers,
        'readMemoryFile',
        { folder: folder(), relativePath, revealSecrets: true },
        desktop,
      );
      expect(revealed).toMatchObject({ ok: true, value: { secretsMasked: 0 } });
      expect((revealed as { value: { text: string } }).value.text).toContain(secrets[index].text);
    }
  });

  it('masks transcript exports, Markdown and HTML', async () => {
    const session = world.project.slug;
    const listed = await dispatchRequest(world.engine.handlers, 'listSessions', { configRoot: world.home.root, slug: session }, web);
    const sessions = (listed as { value: { sessionId: string; title: string | null }[] }).value;
    for (const { sessionId } of sessions) {
      for (const format of ['markdown', 'html'] as const) {
        let text = '';
        let cursor: number | null = 0;
        while (cursor !== null) {
          const chunk = await dispatchRequest(
            world.engine.handlers,
            'exportTranscript',
            { configRoot: world.home.root, slug: session, sessionId, format, cursor },
            web,
          );
          const value = (chunk as { value: { text: string; nextCursor: number | null } }).value;
          text += value.text;
          cursor = value.nextCursor;
        }
        tried++;
        expect(leaks(text, secrets), `${format} export of ${sessionId}`).toEqual([]);
      }
    }
  });

  it('masks job records (summary and proposals) as shown, and applies the real text', async () => {
    const [github, anthropic] = [secrets.find((e) => e.rule === 'github')!, secrets.find((e) => e.rule === 'anthropic')!];
    const key = secrets.find((e) => e.rule === 'privatekey')!;
    world.fake.enqueue(
      toolUseTurn([
        {
          name: 'write_file',
          input: {
            path: 'reference_tokens.md',
            content: `---\nname: Tokens\ndescription: CI tokens\ntype: reference\n---\n${github.text}\n${key.text}\n`,
          },
        },
      ]),
      textTurn(`Saved the release token ${anthropic.text} for later.`),
    );
    const started = await dispatchRequest(world.engine.handlers, 'startDream', { target: { kind: 'project', ...world.ref } }, web);
    const jobId = (started as { value: { id: string } }).value.id;
    await world.jobs.waitForJob(jobId);
    const used = [github, anthropic, key];
    tried += 3;
    const shown = await dispatchRequest(world.engine.handlers, 'getJob', { jobId }, web);
    expect(shown).toMatchObject({ ok: true, value: { maskedProposals: ['reference_tokens.md'] } });
    expect(leaks(JSON.stringify(shown), used)).toEqual([]);
    expect(leaks(JSON.stringify(await dispatchRequest(world.engine.handlers, 'listJobs', {}, web)), used)).toEqual([]);
    expect(await dispatchRequest(world.engine.handlers, 'getJob', { jobId, revealSecrets: true }, web)).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    const revealed = await dispatchRequest(world.engine.handlers, 'getJob', { jobId, revealSecrets: true }, desktop);
    expect(JSON.stringify(revealed)).toContain(github.secret);
    const applied = await dispatchRequest(
      world.engine.handlers,
      'applyJob',
      { jobId, decisions: [{ path: 'reference_tokens.md', decision: 'accept' }] },
      web,
    );
    expect(applied).toMatchObject({ ok: true, value: { applied: [{ path: 'reference_tokens.md' }] } });
    const written = await dispatchRequest(
      world.engine.handlers,
      'readMemoryFile',
      { folder: folder(), relativePath: 'reference_tokens.md', revealSecrets: true },
      desktop,
    );
    expect((written as { value: { text: string } }).value.text).toContain(github.secret);
  });
});
