import { appendFile, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seededUuid } from '../../fixtures/sessionLines';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { userPrompt } from '../../fixtures/transcriptLines';
import { ccmem } from '../../helpers/ccmem';

/** The documented schema of `ccmem archive --json` (README); scripts rely on exactly these keys. */
const archiveJsonSchema = z.strictObject({
  sessions: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  compressedBytes: z.number().int().nonnegative(),
  oldest: z.iso.datetime().nullable(),
  cleanupPeriodDays: z.number().nonnegative(),
  enabled: z.boolean(),
  maxBytes: z.number().int().positive().nullable(),
  deletedSessions: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  fileHistoryBackups: z.number().int().nonnegative(),
  warnings: z.array(z.string()),
  projects: z.array(
    z.strictObject({
      configRoot: z.string().min(1),
      slug: z.string().min(1),
      sessions: z.number().int().positive(),
      deletedSessions: z.number().int().nonnegative(),
      bytes: z.number().int().nonnegative(),
      compressedBytes: z.number().int().positive(),
      oldest: z.iso.datetime().nullable(),
      newest: z.iso.datetime().nullable(),
      transcriptsOnDisk: z.boolean(),
    }),
  ),
  removed: z.strictObject({ sessions: z.number().int(), files: z.number().int(), compressedBytes: z.number().int() }).nullable(),
});

async function archiveJson(env: NodeJS.ProcessEnv, ...extra: string[]) {
  const result = await ccmem(['archive', '--json', ...extra], env);
  expect(result.code, result.stderr).toBe(0);
  return archiveJsonSchema.parse(JSON.parse(result.stdout));
}

/** Base64 of seeded pseudo-random bytes: a prompt that does not compress, so sizes are predictable. */
function incompressible(bytes: number, seed: number): string {
  const buffer = Buffer.alloc(bytes);
  let state = seed;
  for (let i = 0; i < bytes; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    buffer[i] = state & 0xff;
  }
  return buffer.toString('base64');
}

describe('ccmem archive', () => {
  let scenario: StandardScenario;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    scenario = await createStandardScenario();
    env = { HOME: scenario.home.tmp, CLAUDE_CONFIG_DIR: scenario.home.root, CCMEM_DATA_DIR: join(scenario.home.tmp, 'data') };
  });
  afterEach(() => scenario.home.cleanup());

  it('brings the archive up to date with progress on stderr, prints the documented schema, and writes nothing under the config root', async () => {
    const before = await snapshotTree(scenario.home.root);
    const { code, stdout, stderr } = await ccmem(['archive', '--json'], env);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^archiving: \d+\/\d+ files, [\d.]+\/[\d.]+ MB$/m);
    const status = archiveJsonSchema.parse(JSON.parse(stdout));
    expect(status).toMatchObject({
      sessions: 6,
      deletedSessions: 0,
      files: 6,
      enabled: true,
      maxBytes: null,
      cleanupPeriodDays: 30,
      warnings: [],
      removed: null,
    });
    expect(status.compressedBytes).toBeLessThan(status.bytes);
    expect(status.projects.map((project) => [project.slug, project.sessions, project.transcriptsOnDisk]).sort()).toEqual(
      [
        [scenario.webshop.slug, 3, true],
        [scenario.monorepo.sessionSlug, 2, true],
        [scenario.windows.slug, 1, true],
      ].sort(),
    );
    expect(await snapshotTree(scenario.home.root)).toEqual(before);
    // A second run finds nothing new.
    expect(await archiveJson(env)).toEqual(status);
  });

  it('keeps a session Claude Code deleted: sessions lists it archived, transcript and search read it', async () => {
    await archiveJson(env);
    const checkout = scenario.webshop.sessions[0];
    await rm(checkout.file);
    const sessions = JSON.parse((await ccmem(['sessions', '--json'], env)).stdout) as { sessionId: string; archived: boolean }[];
    expect(sessions).toHaveLength(6);
    expect(sessions.filter((session) => session.archived).map((session) => session.sessionId)).toEqual([checkout.sessionId]);

    const markdown = await ccmem(['transcript', checkout.sessionId], env);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain('- Archived: ');
    expect(markdown.stdout).toContain('Rewrite the checkout flow to use the new payment API');
    const hits = JSON.parse((await ccmem(['search', 'Rewrite the checkout flow', '--json'], env)).stdout) as {
      path: string;
      archived: boolean;
    }[];
    expect(hits).toContainEqual(expect.objectContaining({ path: checkout.file, archived: true }));
    expect(await archiveJson(env)).toMatchObject({ sessions: 6, deletedSessions: 1 });
  });

  it('shows cleanupPeriodDays as settings.json sets it, and warns when it is short or 0', async () => {
    await scenario.home.userSettings({ cleanupPeriodDays: 7 });
    const short = await archiveJson(env);
    expect(short.cleanupPeriodDays).toBe(7);
    expect(short.warnings).toEqual([expect.stringMatching(/^Claude Code deletes transcripts 7 days after their last change/)]);
    await scenario.home.userSettings({ cleanupPeriodDays: 0 });
    const none = await archiveJson(env);
    expect(none.cleanupPeriodDays).toBe(0);
    expect(none.warnings).toEqual([expect.stringMatching(/^cleanupPeriodDays is 0 in .*settings\.json: Claude Code keeps no transcripts/)]);
    const text = await ccmem(['archive'], env);
    expect(text.stdout).toContain('warning: cleanupPeriodDays is 0');
  });

  it('can be turned off and on, and refuses bad options', async () => {
    const off = await archiveJson(env, '--disable');
    expect(off).toMatchObject({ enabled: false, sessions: 0 });
    expect(off.warnings).toEqual([expect.stringMatching(/^The archive is off/)]);
    expect(await archiveJson(env)).toMatchObject({ enabled: false, sessions: 0 });
    expect(await archiveJson(env, '--enable')).toMatchObject({ enabled: true, sessions: 6 });
    for (const bad of [
      ['--prune-before', 'soon'],
      ['--max-size', '10'],
      ['--enable', '--disable'],
      ['--delete-project', '../x'],
    ]) {
      const result = await ccmem(['archive', ...bad], env);
      expect(result.code, bad.join(' ')).toBe(2);
    }
  });

  it('caps its size by letting the sessions with the oldest activity go', async () => {
    const project = scenario.home.project(scenario.home.workPath('big'));
    const old = await project.session({ turns: 1, start: '2026-01-01T09:00:00.000Z' });
    const recent = await project.session({ turns: 1, start: '2026-06-01T09:00:00.000Z' });
    for (const [index, session] of [old, recent].entries()) {
      await appendFile(
        session.file,
        `${userPrompt(incompressible(1_200_000, index + 7), { sessionId: session.sessionId, uuid: seededUuid(`big${index}`) })}\n`,
      );
    }
    await utimes(old.file, new Date('2026-01-02T00:00:00.000Z'), new Date('2026-01-02T00:00:00.000Z'));
    await utimes(recent.file, new Date('2026-06-02T00:00:00.000Z'), new Date('2026-06-02T00:00:00.000Z'));
    const full = await archiveJson(env);
    expect(full.sessions).toBe(8);
    const capped = await archiveJson(env, '--max-size', '2MB');
    expect(capped.maxBytes).toBe(2 * 1024 * 1024);
    expect(capped.compressedBytes).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(capped.sessions).toBeLessThan(8);
    const big = capped.projects.find((p) => p.slug === project.slug);
    expect(big).toMatchObject({ sessions: 1, newest: '2026-06-02T00:00:00.000Z' });
    const sessions = JSON.parse((await ccmem(['sessions', '--json'], env)).stdout) as { sessionId: string }[];
    // Still on disk, so still listed; the archive just holds no copy of it now.
    expect(sessions.map((session) => session.sessionId)).toContain(old.sessionId);
    expect(await archiveJson(env, '--max-size', 'none')).toMatchObject({ maxBytes: null });
  });

  it('prunes by date, and deletes the archive of a project deleted on purpose (refused while its transcripts remain)', async () => {
    await archiveJson(env);
    const all = [...scenario.webshop.sessions, ...scenario.monorepo.sessions, ...scenario.windows.sessions];
    // Session files carry their last timestamp as mtime: the ones last active before the date go.
    const older = all.filter((session) => session.mtime.getTime() < Date.parse('2026-05-03T00:00:00.000Z'));
    expect(older.length).toBeGreaterThan(0);
    const pruned = await archiveJson(env, '--prune-before', '2026-05-03');
    expect(pruned.removed).toMatchObject({ sessions: older.length, files: older.length });
    expect(pruned.sessions).toBe(all.length - older.length);
    // Pruned files still on disk are not archived again unless they change.
    expect(await archiveJson(env)).toMatchObject({ sessions: all.length - older.length });

    const refused = await ccmem(['archive', '--delete-project', scenario.webshop.slug], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('still holds transcripts');

    for (const session of scenario.webshop.sessions) await rm(session.file, { force: true });
    // A sub-agent's transcript left in a session's folder still counts: the project was not deleted on purpose.
    const leftAgent = join(scenario.webshop.dir, scenario.webshop.sessions[0].sessionId, 'subagents', 'agent-left.jsonl');
    await mkdir(dirname(leftAgent), { recursive: true });
    await writeFile(leftAgent, `${JSON.stringify(userPrompt('left behind'))}\n`);
    const stillThere = await archiveJson(env);
    expect(stillThere.projects.find((project) => project.slug === scenario.webshop.slug)?.transcriptsOnDisk).toBe(true);
    const refusedAgain = await ccmem(['archive', '--delete-project', scenario.webshop.slug], env);
    expect(refusedAgain.code).toBe(1);
    expect(refusedAgain.stderr).toContain('still holds transcripts');
    await rm(dirname(dirname(leftAgent)), { recursive: true });
    const gone = await archiveJson(env);
    const webshop = gone.projects.find((project) => project.slug === scenario.webshop.slug);
    expect(webshop?.transcriptsOnDisk).toBe(false);
    const deleted = await archiveJson(env, '--delete-project', scenario.webshop.slug);
    expect(deleted.removed?.sessions).toBe(webshop?.sessions);
    expect(deleted.projects.map((project) => project.slug)).not.toContain(scenario.webshop.slug);
    const sessions = JSON.parse((await ccmem(['sessions', '--json'], env)).stdout) as { slug: string }[];
    expect(sessions.map((session) => session.slug)).not.toContain(scenario.webshop.slug);
  });
});
