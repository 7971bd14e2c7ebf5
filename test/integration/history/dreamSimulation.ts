/**
 * A home with one project whose memory a dream will consolidate, and the dream itself as it looks from
 * outside (claude-code-state.md §7.4, §7.5): the lock is taken (PID written, mtime now), files are merged and
 * deleted, the index is rewritten, then the lock is left with its mtime and no holder.
 */
import { readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createScenarioHome, DEAD_PID, topicFile, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import type { SessionFacts } from '../../fixtures/sessionLines';
import { appendLines, memorySavedLine, setMtime } from './historyFixtures';

export interface DreamScenario {
  readonly home: ScenarioHome;
  readonly project: ProjectBuilder;
  readonly session: SessionFacts;
  /** The 25 topic files: the first 20 are merged by the dream, the last 5 deleted. */
  readonly names: readonly string[];
}

export async function createDreamScenario(): Promise<DreamScenario> {
  const home = await createScenarioHome({ prefix: 'ccmem-dream-' });
  const project = home.project(home.workPath('shop'));
  const session = await project.session({ turns: 2, mtime: new Date() });
  const names = Array.from({ length: 25 }, (_, i) => `project_topic_${String(i).padStart(2, '0')}.md`);
  for (const name of names) await project.memory(name, topicFile({ variant: 'flat', name, description: `About ${name}`, type: 'project' }));
  await project.memoryIndex(names.map((n) => `- [${n}](${n}) — topic\n`).join(''));
  await project.lock({ pid: DEAD_PID, mtime: '2026-04-01T00:00:00.000Z' });
  return { home, project, session, names };
}

/** Runs the dream; returns the lock's new mtime (when the dream took it). */
export async function simulateDream(scenario: DreamScenario, options: { improved: boolean }): Promise<number> {
  const { project, names, session } = scenario;
  const lock = join(project.memoryDir, '.consolidate-lock');
  await writeFile(lock, String(DEAD_PID));
  const takenAt = (await stat(lock)).mtime;
  let at = takenAt.getTime();
  for (let i = 0; i < 20; i++) {
    const merged = names[20 + (i % 5)];
    const path = join(project.memoryDir, names[i]);
    const text = await readFile(path, 'utf8');
    await writeFile(path, `${text.replace('Some remembered fact.', `Merged fact ${i}.`)}\nFolded in from ${merged}.\n`);
    await setMtime(path, new Date((at += 700)));
  }
  for (const name of names.slice(20)) await unlink(join(project.memoryDir, name));
  await writeFile(
    join(project.memoryDir, 'MEMORY.md'),
    names
      .slice(0, 20)
      .map((n) => `- [${n}](${n}) — merged\n`)
      .join(''),
  );
  await setMtime(join(project.memoryDir, 'MEMORY.md'), new Date((at += 700)));
  // Released: no holder any more, the mtime stays when the dream started.
  await writeFile(lock, '');
  await setMtime(lock, takenAt);
  if (options.improved) {
    const paths = names.slice(0, 20).map((n) => join(project.memoryDir, n));
    await appendLines(session.file, [
      memorySavedLine({ sessionId: session.sessionId, cwd: project.cwd, time: new Date(at + 2000) }, paths, 'Improved'),
    ]);
  }
  return (await stat(lock)).mtimeMs;
}
