import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { appendLines, setMtime, toolUseLine } from './historyFixtures';
import { ccmem } from '../../helpers/ccmem';

const hash = z.string().regex(/^[0-9a-f]{64}$/);
/** The documented schema of `ccmem history --json`; scripts rely on exactly these keys. */
const historyJsonSchema = z.strictObject({
  changeSets: z.array(
    z.strictObject({
      id: z.string().min(1),
      time: z.iso.datetime(),
      cause: z.enum(['app-edit', 'session', 'extraction', 'dream', 'external']),
      sessionId: z.string().nullable(),
      turnUuid: z.string().nullable(),
      reconstructed: z.boolean(),
      files: z.array(
        z.strictObject({
          path: z.string().min(1),
          kind: z.enum(['added', 'modified', 'deleted']),
          before: hash.nullable(),
          after: hash.nullable(),
          linesAdded: z.number().int().nonnegative(),
          linesRemoved: z.number().int().nonnegative(),
          certainty: z.enum(['exact', 'inferred']),
        }),
      ),
    }),
  ),
});

async function history(argv: string[], env: NodeJS.ProcessEnv) {
  const { code, stdout, stderr } = await ccmem(['history', ...argv, '--json'], env);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return historyJsonSchema.parse(JSON.parse(stdout)).changeSets;
}

describe('ccmem history, restore and revert on a scenario home', () => {
  let scenario: StandardScenario;
  let env: NodeJS.ProcessEnv;
  const rel = 'feedback_no_force_push.md';
  let file: string;
  let original: string;

  beforeAll(async () => {
    scenario = await createStandardScenario();
    env = { HOME: scenario.home.tmp, CLAUDE_CONFIG_DIR: scenario.home.root, CCMEM_DATA_DIR: join(scenario.home.tmp, 'data') };
    file = join(scenario.webshop.memoryDir, rel);
    original = await readFile(file, 'utf8');
  });
  afterAll(() => scenario.home.cleanup());

  it('records first sight on the first run without listing it as a change, and writes nothing under the config root', async () => {
    const before = await snapshotTree(scenario.home.root);
    // Listed: only what came before history started, reconstructed (here the frontmatter of one file).
    const listed = await history([], env);
    expect(listed).toEqual([
      expect.objectContaining({
        cause: 'session',
        reconstructed: true,
        sessionId: scenario.webshop.topics['user_prefers_pnpm.md'].originSessionId,
        turnUuid: null,
        files: [expect.objectContaining({ path: 'user_prefers_pnpm.md', kind: 'added', certainty: 'exact', before: null })],
      }),
    ]);
    expect(await snapshotTree(scenario.home.root)).toEqual(before);
  });

  it('lists a session edit found since the last run, filtered by project and file', async () => {
    const session = scenario.webshop.sessions[2];
    const now = new Date();
    const edited = original.replace('Never force-push', 'Never, ever force-push');
    await appendLines(session.file, [
      toolUseLine({ sessionId: session.sessionId, cwd: scenario.webshop.path, time: new Date(now.getTime() - 1000) }, 'Edit', {
        file_path: file,
        old_string: 'Never force-push',
        new_string: 'Never, ever force-push',
      }),
    ]);
    await writeFile(file, edited);
    await setMtime(file, now);
    const all = (await history([], env)).filter((c) => !c.reconstructed);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ cause: 'session', sessionId: session.sessionId });
    expect(all[0].files).toEqual([
      {
        path: rel,
        kind: 'modified',
        before: expect.any(String),
        after: expect.any(String),
        linesAdded: 1,
        linesRemoved: 1,
        certainty: 'exact',
      },
    ]);
    expect(await history(['--project', scenario.webshop.slug, '--file', rel], env)).toEqual(all);
    expect(await history(['--since', new Date(now.getTime() - 60_000).toISOString()], env)).toEqual(all);
    expect(await history(['--since', new Date(now.getTime() + 60_000).toISOString()], env)).toEqual([]);
    expect(await history(['--project', scenario.webshop.slug, '--file', 'MEMORY.md'], env)).toEqual([]);
    expect(await history(['--project', scenario.monorepo.memorySlug], env)).toEqual([]);
  });

  it('restores a version: --dry-run prints the diff and writes nothing; then it writes and is recorded as an app edit', async () => {
    const [change] = (await history([], env)).filter((c) => !c.reconstructed);
    const version = change.files[0].before as string;
    const before = await snapshotTree(scenario.home.root);
    const dry = await ccmem(
      ['restore', '--project', scenario.webshop.slug, '--file', rel, '--version', version.slice(0, 12), '--dry-run'],
      env,
    );
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('-description: Never, ever force-push');
    expect(dry.stdout).toContain('+description: Never force-push');
    expect(await snapshotTree(scenario.home.root)).toEqual(before);

    const done = await ccmem(['restore', '--project', scenario.webshop.slug, '--file', rel, '--version', version], env);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(original);
    const [restore] = await history([], env);
    expect(restore).toMatchObject({ cause: 'app-edit', sessionId: null });
    expect(restore.files[0]).toMatchObject({ path: rel, before: change.files[0].after, after: version });
  });

  it('reverts a change set, and refuses when a newer change would be overwritten', async () => {
    const changes = await history([], env);
    const sessionEdit = changes.find((c) => c.cause === 'session');
    expect(sessionEdit).toBeDefined();
    // The restore above already changed the file after the session's edit: reverting that edit is refused.
    const refused = await ccmem(['revert', '--change-set', sessionEdit?.id as string], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Refused: it would overwrite a newer change/);
    expect(refused.stderr).toContain(rel);
    expect(await readFile(file, 'utf8')).toBe(original);

    // Reverting the restore itself puts the session's version back.
    const [restore] = changes;
    const dry = await ccmem(['revert', '--change-set', restore.id, '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`+++ b/${rel}`);
    expect(await readFile(file, 'utf8')).toBe(original);
    const done = await ccmem(['revert', '--change-set', restore.id], env);
    expect(done.code).toBe(0);
    expect(await readFile(file, 'utf8')).toContain('Never, ever force-push');
  });

  it('explains bad input on stderr with a non-zero exit', async () => {
    const unknownProject = await ccmem(['history', '--project', '-no-such-project'], env);
    expect(unknownProject.code).toBe(1);
    expect(unknownProject.stderr).toMatch(/no project -no-such-project/);
    const unknownSet = await ccmem(['revert', '--change-set', 'cs-doesnotexist'], env);
    expect(unknownSet.code).toBe(1);
    expect(unknownSet.stderr).toMatch(/No change set/);
    const missing = await ccmem(['restore', '--project', scenario.webshop.slug], env);
    expect(missing.code).toBe(2);
  });
});
