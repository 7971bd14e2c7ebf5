import { join } from 'node:path';
import { createContentPools, type ContentPools } from './contentPools';
import { FolderCache } from './FolderCache';
import { planHome, type ProjectPlan } from './homePlan';
import { writeMemoryFolder } from './memoryWriter';
import { SeededRandom } from './seededRandom';
import { writeSession, type WrittenSession } from './sessionWriter';
import { SIZE_PROFILES, type BenchSize } from './sizeProfiles';

/** The word planted in some prompts and memory files; it occurs nowhere else in the generated text. */
export const SEARCH_NEEDLE = 'quokkafjord';

/** "Now" for the synthetic home: memory ages and lock times are relative to it. */
export const GENERATED_AT_MS = Date.parse('2026-06-01T00:00:00.000Z');

const MAIN_BUFFER_BYTES = 8 << 20;
const AGENT_BUFFER_BYTES = 1 << 20;

export interface ProjectTotals {
  readonly index: number;
  readonly sessions: readonly WrittenSession[];
  readonly memoryFiles: number;
  readonly memoryBytes: number;
  readonly needleMemoryFiles: number;
}

/** One slice of the work: which projects of which home; the same for the main thread and a worker. */
export interface ProjectBatch {
  readonly root: string;
  readonly size: BenchSize;
  readonly seed: number;
  readonly projectIndexes: readonly number[];
}

function writeProject(
  project: ProjectPlan,
  batch: ProjectBatch,
  buffers: { main: Buffer; agent: Buffer },
  pools: ContentPools,
): ProjectTotals {
  const { root, seed } = batch;
  const folders = new FolderCache();
  const projectDir = folders.ensure(join(root, 'projects', project.slug));
  const memoryDir = project.memory ? join(root, 'projects', project.memory.slug, 'memory') : null;
  const written = new Map<string, string>();
  const memoryIndex: string[] | null = memoryDir === null ? null : [];
  const sessions: WrittenSession[] = [];
  let previousLeafUuid: string | null = null;
  for (const session of project.sessions) {
    const result = writeSession(session, {
      seed,
      projectDir,
      cwd: JSON.stringify(project.cwd).slice(1, -1),
      branches: project.branches.map((branch) => JSON.stringify(branch).slice(1, -1)),
      memoryDir: memoryDir === null ? null : JSON.stringify(memoryDir).slice(1, -1),
      memoryIndex,
      pools,
      mainBuffer: buffers.main,
      agentBuffer: buffers.agent,
      needle: SEARCH_NEEDLE,
      writtenSessions: written,
      previousLeafUuid,
      folders,
    });
    written.set(session.sessionId, result.path);
    previousLeafUuid = result.lastUuid;
    sessions.push(result);
  }
  if (!project.memory || !memoryDir) return { index: project.index, sessions, memoryFiles: 0, memoryBytes: 0, needleMemoryFiles: 0 };
  const memory = writeMemoryFolder({
    memoryDir,
    plan: project.memory,
    sessionIds: project.sessions.map((s) => s.sessionId),
    pools,
    random: new SeededRandom(seed, `memory:${project.index}`),
    nowMs: GENERATED_AT_MS,
    needle: SEARCH_NEEDLE,
  });
  return { index: project.index, sessions, memoryFiles: memory.files, memoryBytes: memory.bytes, needleMemoryFiles: memory.needleFiles };
}

/** Writes some projects of a home. Each project depends only on the seed and its index, so batches may run in any thread. */
export function writeProjects(batch: ProjectBatch): ProjectTotals[] {
  const plan = planHome(SIZE_PROFILES[batch.size], batch.seed);
  const pools = createContentPools(batch.seed);
  const buffers = { main: Buffer.allocUnsafe(MAIN_BUFFER_BYTES), agent: Buffer.allocUnsafe(AGENT_BUFFER_BYTES) };
  return batch.projectIndexes.map((index) => writeProject(plan.projects[index], batch, buffers, pools));
}
