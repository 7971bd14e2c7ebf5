import { existsSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createContentPools } from './contentPools';
import { DOCTOR_PROJECT, MAIN_PROJECT, planHome, type HomePlan } from './homePlan';
import { writeAgentMemories } from './memoryWriter';
import { GENERATED_AT_MS, SEARCH_NEEDLE, writeProjects, type ProjectBatch, type ProjectTotals } from './projectWriter';
import type { WrittenSession } from './sessionWriter';
import { SIZE_PROFILES, type BenchSize } from './sizeProfiles';

/** What the generator wrote, and where the figures find their subjects. Stable: the runner and tests read it. */
export interface GeneratedHome {
  readonly root: string;
  readonly size: BenchSize;
  readonly seed: number;
  readonly seconds: number;
  readonly mbPerSecond: number;
  readonly bytes: {
    readonly total: number;
    /** Session files (`<sessionId>.jsonl`). */
    readonly sessions: number;
    /** Sub-agent transcripts and their `meta.json` (inline sidechains count as session bytes). */
    readonly subagents: number;
    /** Spilled tool outputs and session-memory notes. */
    readonly sidecars: number;
    readonly memory: number;
  };
  readonly counts: {
    readonly projects: number;
    readonly sessions: number;
    readonly subagentFiles: number;
    readonly sidecarFiles: number;
    readonly memoryFiles: number;
    readonly compactions: number;
  };
  readonly largestTranscript: { readonly path: string; readonly slug: string; readonly sessionId: string; readonly bytes: number };
  /** A small, current 2.1 session the append figure writes to (as Claude Code would). */
  readonly appendTarget: { readonly path: string; readonly slug: string; readonly sessionId: string; readonly cwd: string };
  readonly doctorProject: { readonly slug: string; readonly memoryDir: string; readonly topicFiles: number };
  readonly searchNeedle: { readonly text: string; readonly transcriptOccurrences: number; readonly memoryFiles: number };
}

export interface GenerateOptions {
  readonly size: BenchSize;
  /** The config root to create; must not exist yet or be empty. */
  readonly out: string;
  readonly seed: number;
  /** Threads to write with; default: one per core (up to 4) for the medium and large homes, one for small. */
  readonly threads?: number;
}

/** The generator never writes into anything it did not create: a new or empty folder, not reached through a link. */
function ensureEmptyDir(dir: string): void {
  const stats = lstatSync(dir, { throwIfNoEntry: false });
  if (stats?.isSymbolicLink()) throw new Error(`${dir} is a symbolic link; give the generator a real folder`);
  if (stats && readdirSync(dir).length > 0) throw new Error(`${dir} is not empty; the generator only writes into a new or empty folder`);
  mkdirSync(dir, { recursive: true });
}

/** Below this, starting a worker (and compiling its TypeScript) costs more than it saves. */
const PARALLEL_FROM_BYTES = 200_000_000;

/** Splits the projects into batches of about equal bytes, biggest first. */
function batchesOf(plan: HomePlan, count: number): number[][] {
  const batches = Array.from({ length: count }, () => ({ bytes: 0, indexes: [] as number[] }));
  const bytes = plan.projects.map((p) => ({ index: p.index, bytes: p.sessions.reduce((sum, s) => sum + s.budgetBytes, 0) }));
  for (const project of bytes.sort((a, b) => b.bytes - a.bytes)) {
    const lightest = batches.reduce((min, batch) => (batch.bytes < min.bytes ? batch : min));
    lightest.bytes += project.bytes;
    lightest.indexes.push(project.index);
  }
  return batches.map((batch) => batch.indexes).filter((indexes) => indexes.length > 0);
}

function runWorker(url: URL, batch: ProjectBatch): Promise<ProjectTotals[]> {
  return new Promise((resolvePromise, reject) => {
    // Workers only run from source, where the worker is TypeScript: it registers tsx's loader first.
    const tsxApi = import.meta.resolve('tsx/esm/api');
    const code = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
    const worker = new Worker(code, { eval: true, workerData: batch });
    worker.once('message', (totals: ProjectTotals[]) => resolvePromise(totals));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`generator worker exited with code ${code}`));
    });
  });
}

/**
 * Writes the projects on every core: one batch in this thread, the others in worker threads. The worker
 * module is only beside this one when running from source; a bundle (the built `ccmem`) writes in this
 * thread alone.
 */
async function writeAllProjects(plan: HomePlan, root: string, options: GenerateOptions): Promise<ProjectTotals[]> {
  const workerUrl = new URL('./projectWorker.ts', import.meta.url);
  const wanted = options.threads ?? (SIZE_PROFILES[options.size].targetBytes >= PARALLEL_FROM_BYTES ? availableParallelism() : 1);
  const threads = existsSync(fileURLToPath(workerUrl)) ? Math.min(wanted, 4) : 1;
  const batches = batchesOf(plan, Math.max(1, threads)).map((projectIndexes) => ({
    root,
    size: options.size,
    seed: options.seed,
    projectIndexes,
  }));
  const others = batches.slice(1).map((batch) => runWorker(workerUrl, batch));
  const mine = writeProjects(batches[0]);
  const all = [...mine, ...(await Promise.all(others)).flat()];
  return all.sort((a, b) => a.index - b.index);
}

/** Writes a synthetic config root for one size; the same size, seed and folder always give the same bytes. */
export async function generateHome(options: GenerateOptions): Promise<GeneratedHome> {
  const started = performance.now();
  const root = resolve(options.out);
  ensureEmptyDir(root);
  const profile = SIZE_PROFILES[options.size];
  const plan = planHome(profile, options.seed);
  writeFileSync(join(root, 'settings.json'), '{\n  "autoMemoryEnabled": true\n}\n');
  const results = await writeAllProjects(plan, root, options);
  const pools = createContentPools(options.seed);
  const agentMemory = writeAgentMemories({ root, pools, seed: options.seed, nowMs: GENERATED_AT_MS, needle: SEARCH_NEEDLE });

  const sessions = results.flatMap((r) => r.sessions);
  const sum = (pick: (s: WrittenSession) => number) => sessions.reduce((total, s) => total + pick(s), 0);
  const memoryBytes = results.reduce((total, r) => total + r.memoryBytes, 0) + agentMemory.bytes;
  const bytes = {
    sessions: sum((s) => s.transcriptBytes),
    subagents: sum((s) => s.subagentBytes),
    sidecars: sum((s) => s.sidecarBytes),
    memory: memoryBytes,
  };
  const total = bytes.sessions + bytes.subagents + bytes.sidecars + bytes.memory;
  const seconds = (performance.now() - started) / 1000;

  const mainProject = plan.projects[MAIN_PROJECT];
  const mainResults = results[MAIN_PROJECT].sessions;
  const largestIndex = mainProject.sessions.findIndex((s) => s.role === 'largest');
  const appendIndex = mainProject.sessions.findIndex((s) => s.role === 'append-target');
  const doctor = plan.projects[DOCTOR_PROJECT];
  return {
    root,
    size: options.size,
    seed: options.seed,
    seconds,
    mbPerSecond: total / 1e6 / seconds,
    bytes: { total, ...bytes },
    counts: {
      projects: plan.projects.length,
      sessions: sessions.length,
      subagentFiles: sum((s) => s.subagentFiles),
      sidecarFiles: sum((s) => s.sidecarFiles),
      memoryFiles: results.reduce((n, r) => n + r.memoryFiles, 0) + agentMemory.files,
      compactions: sum((s) => s.compactions),
    },
    largestTranscript: {
      path: mainResults[largestIndex].path,
      slug: mainProject.slug,
      sessionId: mainProject.sessions[largestIndex].sessionId,
      bytes: mainResults[largestIndex].transcriptBytes,
    },
    appendTarget: {
      path: mainResults[appendIndex].path,
      slug: mainProject.slug,
      sessionId: mainProject.sessions[appendIndex].sessionId,
      cwd: mainProject.cwd,
    },
    doctorProject: {
      slug: doctor.memory?.slug ?? doctor.slug,
      memoryDir: join(root, 'projects', doctor.memory?.slug ?? doctor.slug, 'memory'),
      topicFiles: doctor.memory?.topicFiles ?? 0,
    },
    searchNeedle: {
      text: SEARCH_NEEDLE,
      transcriptOccurrences: sum((s) => s.needleOccurrences),
      memoryFiles: results.reduce((n, r) => n + r.needleMemoryFiles, 0) + agentMemory.needleFiles,
    },
  };
}
