import { MAX_SANITIZED_LENGTH, sanitizePathPrefix } from '../../shared/claude/sanitizePath';
import { eraAt, eraById, type Era } from './eras';
import { SeededRandom } from './seededRandom';
import type { SizeProfile } from './sizeProfiles';

/** What one session will be; the session writer fills in the lines from the session's own random stream. */
export interface SessionPlan {
  readonly sessionId: string;
  readonly era: Era;
  readonly startMs: number;
  /**
   * Bytes this session may write in all its files (transcript, sub-agents, spilled outputs, session memory);
   * for the largest session, in its transcript alone.
   */
  readonly budgetBytes: number;
  /** A `--fork-session` copy: the session starts with a prefix of this earlier session's lines. */
  readonly forkOf: string | null;
  /** Ends with half a line and no newline, as a session being written looks. */
  readonly truncatedTail: boolean;
  readonly role: 'largest' | 'append-target' | 'ordinary';
}

export interface MemoryPlan {
  /** Slug of the folder holding `memory/` (the git root's, which may have no sessions of its own). */
  readonly slug: string;
  readonly topicFiles: number;
  readonly team: boolean;
  readonly consolidationLock: boolean;
  readonly dailyLogs: boolean;
}

export interface ProjectPlan {
  readonly index: number;
  readonly cwd: string;
  readonly slug: string;
  readonly branches: readonly string[];
  readonly sessions: readonly SessionPlan[];
  readonly memory: MemoryPlan | null;
}

export interface HomePlan {
  readonly projects: readonly ProjectPlan[];
}

/** Project 0 holds the largest transcript and the session the append figure writes to. */
export const MAIN_PROJECT = 0;
/** Project 1 holds the 1,000-topic-file memory folder the doctor figure reads. */
export const DOCTOR_PROJECT = 1;

const FIRST_SESSION_MS = Date.parse('2025-06-15T08:00:00.000Z');
const LAST_SESSION_MS = Date.parse('2026-05-31T08:00:00.000Z');
const MIN_SESSION_BYTES = 3_000;
/** Pareto shape of session sizes; near 1 the biggest sessions hold a large share of the bytes, as in real homes. */
const SESSION_SIZE_TAIL = 1.2;
/** The largest session's sub-agent transcripts and spilled outputs, relative to its own file (measured). */
const LARGEST_SESSION_OVERHEAD = 1.6;
/** The biggest ordinary session; keeps the designated largest transcript the largest. */
const MAX_ORDINARY_FRACTION = 0.25;

const PROJECT_NAMES = [
  'webshop',
  'knowledge-base',
  'monorepo',
  'café-ünïcode',
  'deeply-nested',
  'legacy-app',
  'api-gateway',
  'ml-pipeline',
  'mobile-client',
  'infra-terraform',
  'docs-site',
  'data-warehouse',
  'auth-service',
  'cli-tools',
  'game-engine',
  'chat-bot',
];

const BRANCHES = ['main', 'feature/checkout-v2', 'fix/flaky-tests', 'refactor/cache-layer', 'release/2.4', 'HEAD', 'main'];

/** djb2 in base 36, as Claude Code's Node build suffixes slugs longer than 200 characters. */
function djb2Base36(text: string): string {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return Math.abs(hash).toString(36);
}

function slugFor(path: string): string {
  const sanitized = sanitizePathPrefix(path);
  return sanitized.length <= MAX_SANITIZED_LENGTH ? sanitized : `${sanitized.slice(0, MAX_SANITIZED_LENGTH)}-${djb2Base36(path)}`;
}

/** The launch folder of a project and, for a sub-folder launch, the git root whose slug holds the memory. */
function projectPaths(index: number): { cwd: string; gitRoot: string } {
  const name = PROJECT_NAMES[index % PROJECT_NAMES.length] + (index < PROJECT_NAMES.length ? '' : `-${index}`);
  switch (index) {
    case 2:
      return { cwd: `/home/bench/src/${name}/packages/api`, gitRoot: `/home/bench/src/${name}` };
    case 4: {
      const deep = `/home/bench/src/${name}/${'very-long-folder-name-segment/'.repeat(8)}service`;
      return { cwd: deep, gitRoot: deep };
    }
    case 5:
      return { cwd: `C:\\Users\\bench\\src\\${name}`, gitRoot: `C:\\Users\\bench\\src\\${name}` };
    default:
      return { cwd: `/home/bench/src/${name}`, gitRoot: `/home/bench/src/${name}` };
  }
}

function sessionCounts(profile: SizeProfile, random: SeededRandom): number[] {
  const weights = Array.from({ length: profile.projects }, (_, i) => (i === DOCTOR_PROJECT ? 0.05 : 1 / Math.pow(i + 1, 0.7)));
  const total = weights.reduce((sum, w) => sum + w, 0);
  const counts = weights.map((w) => Math.max(2, Math.floor((w / total) * profile.sessions)));
  let missing = profile.sessions - counts.reduce((sum, c) => sum + c, 0);
  while (missing > 0) {
    counts[random.int(0, profile.projects - 1)]++;
    missing--;
  }
  return counts;
}

/** Session sizes: Pareto weights (most sessions small, a few of tens of MB) scaled to the byte target. */
function sessionBudgets(count: number, bytes: number, cap: number, random: SeededRandom): number[] {
  const weights = Array.from({ length: count }, () => random.pareto(SESSION_SIZE_TAIL));
  const capped = new Set<number>();
  let budgets: number[] = [];
  // What a capped session cannot take goes to the others, so the home still comes out near its target size.
  for (let pass = 0; pass < 4; pass++) {
    const free = weights.reduce((sum, w, i) => (capped.has(i) ? sum : sum + w), 0);
    const left = bytes - capped.size * cap;
    budgets = weights.map((w, i) => (capped.has(i) ? cap : Math.max(MIN_SESSION_BYTES, Math.round((w / free) * left))));
    const over = budgets.flatMap((b, i) => (b > cap && !capped.has(i) ? [i] : []));
    if (over.length === 0) break;
    for (const i of over) capped.add(i);
  }
  return budgets.map((b) => Math.min(cap, b));
}

/** Roughly what memory folders and agent memories add; kept out of the transcripts' share. */
function memoryBytesEstimate(profile: SizeProfile): number {
  return profile.doctorTopicFiles * 900 + profile.projects * 40 * 900;
}

/** Decides every project and session of a synthetic home from a seed; writes nothing. */
export function planHome(profile: SizeProfile, seed: number): HomePlan {
  const random = new SeededRandom(seed, `plan:${profile.size}`);
  const counts = sessionCounts(profile, random);
  const ordinaryBytes = profile.targetBytes - profile.largestTranscriptBytes * LARGEST_SESSION_OVERHEAD - memoryBytesEstimate(profile);
  const budgets = sessionBudgets(profile.sessions - 2, ordinaryBytes, profile.largestTranscriptBytes * MAX_ORDINARY_FRACTION, random);
  const late = eraById('v2.1-late');
  const projects: ProjectPlan[] = [];
  let budgetIndex = 0;
  let truncatedLeft = Math.max(1, Math.floor(profile.sessions / 300));
  for (let index = 0; index < profile.projects; index++) {
    const projectRandom = random.derive(`project:${index}`);
    const { cwd, gitRoot } = projectPaths(index);
    const sessions: SessionPlan[] = [];
    const ordinary = counts[index] - (index === MAIN_PROJECT ? 2 : 0);
    const starts = Array.from({ length: ordinary }, () =>
      Math.round(FIRST_SESSION_MS + (LAST_SESSION_MS - FIRST_SESSION_MS - 86_400_000) * Math.sqrt(projectRandom.next())),
    ).sort((a, b) => a - b);
    for (const startMs of starts) {
      const era = eraAt(startMs);
      const budgetBytes = budgets[budgetIndex++];
      const forkable = sessions.filter((s) => s.era.id === 'v2.1-late' && s.budgetBytes < 2_000_000 && s.forkOf === null);
      const forkOf =
        era.id === 'v2.1-late' && forkable.length > 0 && projectRandom.chance(0.04) ? projectRandom.pick(forkable).sessionId : null;
      const truncatedTail = truncatedLeft > 0 && era.id === 'v2.1-late' && forkOf === null && projectRandom.chance(0.05);
      if (truncatedTail) truncatedLeft--;
      sessions.push({ sessionId: projectRandom.uuid(), era, startMs, budgetBytes, forkOf, truncatedTail, role: 'ordinary' });
    }
    if (index === MAIN_PROJECT) {
      sessions.push({
        sessionId: projectRandom.uuid(),
        era: late,
        startMs: LAST_SESSION_MS - 5 * 86_400_000,
        budgetBytes: profile.largestTranscriptBytes,
        forkOf: null,
        truncatedTail: false,
        role: 'largest',
      });
      sessions.push({
        sessionId: projectRandom.uuid(),
        era: late,
        startMs: LAST_SESSION_MS,
        budgetBytes: 30_000,
        forkOf: null,
        truncatedTail: false,
        role: 'append-target',
      });
    }
    const hasMemory = index === DOCTOR_PROJECT || projectRandom.chance(0.8);
    const memory: MemoryPlan | null = hasMemory
      ? {
          slug: slugFor(gitRoot),
          topicFiles: index === DOCTOR_PROJECT ? profile.doctorTopicFiles : projectRandom.logUniform(2, 60),
          team: index % 7 === 3,
          consolidationLock: index % 3 === 0,
          dailyLogs: index === MAIN_PROJECT,
        }
      : null;
    projects.push({ index, cwd, slug: slugFor(cwd), branches: BRANCHES.slice(0, projectRandom.int(1, 4)), sessions, memory });
  }
  return { projects };
}
