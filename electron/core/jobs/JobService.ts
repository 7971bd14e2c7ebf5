import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type {
  ApplyOutcome,
  DreamGate,
  ExtractionEstimate,
  ExtractionSource,
  JobKind,
  JobProgress,
  JobRecord,
  JobRecordView,
  JobStatus,
  JobStopReason,
  JobSummary,
  JobTarget,
  JobTargetInfo,
  JobTrigger,
  ProposalDecision,
} from '../../../shared/jobs/jobTypes';
import type { JobStartOptions } from '../../../shared/jobs/llmSettings';
import type { ProjectRef, ProjectSummary } from '../../../shared/model/home';
import { CodedError } from '../../../shared/result';
import { agentBoundary } from '../layout/agentMemoryDiscovery';
import { contentHash } from '../fs/contentHash';
import type { ChangeSetWriter } from '../changes/changeSetWriter';
import { writeRootOf } from '../history/knownWriteRoots';
import { agentMemoryRoot, autoMemoryRoot } from '../changes/writeRoot';
import type { HomeService } from '../home/HomeService';
import { costOf } from '../../../shared/model/modelPricing';
import { LlmError } from '../llm/llmTypes';
import {
  releaseConsolidationLockAfterDream,
  rollbackConsolidationLock,
  tryAcquireConsolidationLock,
  type HeldConsolidationLock,
} from '../lock/consolidationLock';
import { readConsolidationLockStatus } from '../lock/consolidationLockStatus';
import { INDEX_FILE_NAME } from '../../../shared/memory/indexFileName';
import { SecretMasker } from '../secrets/secretMasker';
import type { LlmSession, LlmSettingsService } from '../settings/LlmSettingsService';
import { runAgentLoop, type AgentLoopResult, type LoopLimits } from './agentLoop';
import { applyProposals } from './applyProposals';
import { runClaudeCodeLoop } from './claudeCodeLoop';
import { readDreamGate } from './dreamGate';
import { dreamKickoff, dreamSystemPrompt } from './dreamPrompt';
import { extractionKickoff, extractionSystemPrompt } from './extractionPrompt';
import { maskRecord, maskSummaries } from './jobMasking';
import { JobRecordStore, newJobId, summarizeJob } from './JobRecordStore';
import { JobToolbox } from './JobToolbox';
import { readMemoryBaseline } from './memoryBaseline';
import { readSessionFileMtimes } from './sessionFileMtimes';
import { memoryManifest } from './memoryManifest';
import { toProposal } from './proposalDiff';
import { StagingOverlay } from './StagingOverlay';
import { JOB_TOOLS } from './toolDefinitions';
import { digestChunks, type DigestSession } from './transcriptDigest';
import { UsageMeter } from './UsageMeter';
import { Emitter } from '../events';
import { listSessions } from '../transcripts/sessionListing';
import { listAgentMemories } from '../agents/agentMemoryListing';

export interface JobLimits {
  readonly dream: Omit<LoopLimits, 'maxCostUsd'>;
  /** Per transcript chunk; `maxTokens` covers the whole batch. */
  readonly extraction: Omit<LoopLimits, 'maxCostUsd'>;
  /** Characters of conversation per extraction chunk (about a quarter as many tokens). */
  readonly chunkChars: number;
}

export const DEFAULT_JOB_LIMITS: JobLimits = {
  dream: { maxTurns: 40, maxTokens: 2_000_000, maxOutputTokensPerTurn: 8192 },
  // Claude Code's own extractor gets five turns.
  extraction: { maxTurns: 5, maxTokens: 4_000_000, maxOutputTokensPerTurn: 4096 },
  chunkChars: 200_000,
};

/** How a job is started; without options it is a job the user started by hand, with the usual caps. */
/** How a job starts: its backend (`via`), what started it, and the limits a scheduler sets. */
export interface StartJobOptions extends JobStartOptions {
  readonly trigger?: JobTrigger;
  /** At most this many tokens (input plus output) for the whole job, below the usual cap: what is left of a budget. */
  readonly maxTokens?: number;
  /**
   * Holds `.consolidate-lock` for the run as Claude Code's own dream does (project memory only): taken before
   * the model starts (a live holder refuses the job), left at the run's start when the proposals are ready
   * (the consolidation is done as far as Claude Code can tell), rolled back when the job fails or is cancelled.
   */
  readonly holdConsolidationLock?: boolean;
}

export interface JobServiceOptions {
  readonly home: HomeService;
  readonly llm: LlmSettingsService;
  /** What applying a job writes through; it also says which folders a job may take as its target. */
  readonly writer: ChangeSetWriter;
  readonly dataDir: string;
  readonly limits?: JobLimits;
  readonly now?: () => Date;
}

interface Draft {
  status: JobStatus;
  finishedAt: string | null;
  /** Model turns over the whole job. */
  turns: number;
  summary: string | null;
  error: string | null;
  stopReason: JobStopReason | null;
  chunks: { done: number; total: number } | null;
}

interface RunningJob {
  readonly base: Omit<
    JobRecord,
    keyof Draft | 'usage' | 'costUsd' | 'proposals' | 'refused' | 'proposalCount' | 'refusedCount' | 'outcome'
  >;
  readonly draft: Draft & {
    /** Turns of the current loop (an extraction part has its own turn cap), for progress. */
    loopTurn: number;
  };
  readonly controller: AbortController;
  readonly meter: UsageMeter;
  readonly toolbox: JobToolbox;
  /** Settles with the final record; never rejects. */
  readonly done: Promise<JobRecord>;
}

interface JobSpec {
  readonly kind: JobKind;
  readonly trigger: JobTrigger;
  readonly target: JobTargetInfo;
  readonly source: ExtractionSource | null;
  readonly session: LlmSession;
  readonly system: string;
  readonly overlay: StagingOverlay;
  readonly chunks: { done: number; total: number } | null;
}

type Listener<T> = (value: T) => void;

/** Rough tokens for text (about four characters a token), for estimates only. */
function tokensOf(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The loop limits with a job's own token cap applied, when it has a lower one. */
function capTokens(limits: Omit<LoopLimits, 'maxCostUsd'>, options: StartJobOptions): Omit<LoopLimits, 'maxCostUsd'> {
  return options.maxTokens === undefined ? limits : { ...limits, maxTokens: Math.min(limits.maxTokens, options.maxTokens) };
}

function today(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Dreams and extraction replays: resolves whose memory a job works on, runs the model over a staging
 * overlay, keeps a record of every job in `<dataDir>/jobs/`, reports progress, and applies what the user
 * approves. The model only ever proposes; the write policy and the apply step decide what lands.
 */
export class JobService {
  private readonly records: JobRecordStore;
  private readonly running = new Map<string, RunningJob>();
  private readonly progressEmitter = new Emitter<JobProgress>();
  private readonly finishEmitter = new Emitter<JobSummary>();
  private readonly limits: JobLimits;
  private readonly now: () => Date;
  private readonly applying = new Set<string>();
  private readonly masker = new SecretMasker();
  /** Memory folders whose job is being set up; a second start must not slip in before it runs. */
  private readonly starting = new Set<string>();

  constructor(private readonly options: JobServiceOptions) {
    this.records = new JobRecordStore(options.dataDir);
    this.limits = options.limits ?? DEFAULT_JOB_LIMITS;
    this.now = options.now ?? (() => new Date());
  }

  onDidProgress(listener: Listener<JobProgress>): () => void {
    return this.progressEmitter.event(listener);
  }

  onDidFinish(listener: Listener<JobSummary>): () => void {
    return this.finishEmitter.event(listener);
  }

  async dreamGate(ref: ProjectRef): Promise<DreamGate> {
    const project = await this.project(ref);
    // Sessions started in sub-folders of the repository use the same memory and count toward its gate. Their mtimes
    // come from disk, not the home's session list, which learns of new sessions but not of sessions that grew.
    const sessions: number[] = [];
    for (const user of await this.options.home.projectsUsingMemoryDir(project.memoryDir))
      for (const [, mtimeMs] of await readSessionFileMtimes(user)) sessions.push(mtimeMs);
    return readDreamGate({
      lock: await readConsolidationLockStatus(project.memoryDir),
      sessionMtimes: sessions,
      configRoot: ref.configRoot,
      now: this.now().getTime(),
    });
  }

  /**
   * Starts a dream over one memory folder and returns at once; `via` picks the backend (default: the one Settings
   * chose). Fails with FORBIDDEN when that backend cannot run, CONFLICT when a job already works on that memory.
   */
  async startDream(target: JobTarget, options: StartJobOptions = {}): Promise<JobSummary> {
    if (options.holdConsolidationLock && target.kind !== 'project')
      throw new CodedError('INVALID_INPUT', 'Only a project memory has a consolidation lock');
    const info = await this.resolveTarget(target);
    return this.exclusive(info.memoryDir, () => this.launchDream(target, info, options));
  }

  private async launchDream(target: JobTarget, info: JobTargetInfo, options: StartJobOptions): Promise<JobSummary> {
    const session = await this.options.llm.openSession(options.via);
    const limits = capTokens(this.limits.dream, options);
    const system = dreamSystemPrompt({ hasTranscripts: info.transcriptDir !== null, maxTurns: limits.maxTurns });
    const overlay = new StagingOverlay(await readMemoryBaseline(info.memoryDir));
    const index = overlay.read(INDEX_FILE_NAME);
    // Counted before a lock we take moves Claude Code's lastConsolidatedAt to now.
    const sessionsSince = target.kind === 'project' ? (await this.dreamGate(target)).sessionsSince : null;
    const kickoff = dreamKickoff({
      label: info.label,
      today: today(this.now()),
      indexText: index.kind === 'text' ? index.content : null,
      sessionsSince,
    });
    const lock = options.holdConsolidationLock ? await this.takeConsolidationLock(info.memoryDir) : null;
    const spec: JobSpec = {
      kind: 'dream',
      trigger: options.trigger ?? 'user',
      target: info,
      source: null,
      session,
      system,
      overlay,
      chunks: null,
    };
    let job: RunningJob;
    try {
      job = await this.begin(spec, async (job) => {
        try {
          const result = await this.runLoop(job, session, system, kickoff, limits);
          job.draft.summary = result.finalText || null;
          job.draft.stopReason = result.stopReason;
        } catch (error) {
          // Claude Code rolls back a failed or killed dream the same way; a failed rollback only delays its next one.
          if (lock) await rollbackConsolidationLock(lock).catch(() => undefined);
          throw error;
        }
        if (lock) await releaseConsolidationLockAfterDream(lock).catch(() => undefined);
      });
    } catch (error) {
      if (lock) await rollbackConsolidationLock(lock).catch(() => undefined);
      throw error;
    }
    return summarizeJob(this.snapshot(job));
  }

  /** Takes the lock as Claude Code does, or refuses the job while another process holds it. */
  private async takeConsolidationLock(memoryDir: string): Promise<HeldConsolidationLock> {
    const lock = await tryAcquireConsolidationLock(memoryDir);
    if (lock) return lock;
    const status = await readConsolidationLockStatus(memoryDir);
    throw new CodedError('LOCK_HELD', `Claude Code is consolidating this memory (process ${status.holderPid ?? '?'})`, {
      holderPid: status.holderPid,
    });
  }

  async estimateExtraction(source: ExtractionSource): Promise<ExtractionEstimate> {
    const { project, sessions } = await this.extractionInput(source);
    const model = await this.options.llm.model();
    const limits = this.limits.extraction;
    const overlay = new StagingOverlay(await readMemoryBaseline(project.memoryDir));
    const overhead = tokensOf(extractionSystemPrompt({ maxTurns: limits.maxTurns }) + memoryManifest(overlay) + JSON.stringify(JOB_TOOLS));
    let chunks = 0;
    let messages = 0;
    let inputTokens = 0;
    for await (const chunk of digestChunks(sessions, this.rangeOf(source), this.limits.chunkChars, AbortSignal.timeout(120_000))) {
      chunks++;
      messages += chunk.messages;
      // A pass reads in one turn and writes in the next: the excerpt is sent at least twice.
      inputTokens += 2 * (overhead + tokensOf(chunk.text));
    }
    const maxOutputTokens = chunks * 2 * limits.maxOutputTokensPerTurn;
    return {
      sessions: sessions.length,
      messages,
      chunks,
      inputTokens,
      maxOutputTokens,
      costUsd: costOf(model, { inputTokens, outputTokens: maxOutputTokens }),
      model,
    };
  }

  /** Starts an extraction replay and returns at once; `via` as for `startDream`. */
  async startExtraction(source: ExtractionSource, options: Omit<StartJobOptions, 'holdConsolidationLock'> = {}): Promise<JobSummary> {
    const input = await this.extractionInput(source);
    return this.exclusive(input.info.memoryDir, () => this.launchExtraction(source, input, options));
  }

  private async launchExtraction(
    source: ExtractionSource,
    { project, sessions, info }: { project: ProjectSummary; sessions: DigestSession[]; info: JobTargetInfo },
    options: StartJobOptions,
  ): Promise<JobSummary> {
    const session = await this.options.llm.openSession(options.via);
    const limits = capTokens(this.limits.extraction, options);
    const system = extractionSystemPrompt({ maxTurns: limits.maxTurns });
    const overlay = new StagingOverlay(await readMemoryBaseline(project.memoryDir));
    const range = this.rangeOf(source);
    let total = 0;
    for await (const _chunk of digestChunks(sessions, range, this.limits.chunkChars, AbortSignal.timeout(120_000))) total++;
    if (total === 0) throw new CodedError('INVALID_INPUT', 'There are no messages to read in that range');
    const job = await this.begin(
      {
        kind: 'extraction',
        trigger: options.trigger ?? 'user',
        target: info,
        source,
        session,
        system,
        overlay,
        chunks: { done: 0, total },
      },
      async (job) => {
        const summaries: string[] = [];
        let part = 0;
        for await (const chunk of digestChunks(sessions, range, this.limits.chunkChars, job.controller.signal)) {
          part++;
          // A chunk that does not finish leaves nothing staged: only completed passes are kept.
          const checkpoint = overlay.checkpoint();
          const citations = job.toolbox.evidence.checkpoint();
          try {
            const kickoff = extractionKickoff({
              manifest: memoryManifest(overlay),
              excerpt: chunk.text,
              part,
              parts: total,
              today: today(this.now()),
            });
            const result = await this.runLoop(job, session, system, kickoff, limits);
            if (result.finalText) summaries.push(total > 1 ? `Part ${part}: ${result.finalText}` : result.finalText);
            job.draft.summary = summaries.join('\n\n') || null;
            job.draft.chunks = { done: part, total };
            this.emitProgress(job);
            // A pass out of turns ends like Claude Code's extractor does; out of tokens or money ends the batch.
            if (result.stopReason === 'token-cap' || result.stopReason === 'cost-cap') {
              job.draft.stopReason = result.stopReason;
              break;
            }
          } catch (error) {
            overlay.restore(checkpoint);
            job.toolbox.evidence.restore(citations);
            throw error;
          }
        }
      },
    );
    return summarizeJob(this.snapshot(job));
  }

  /** One model loop of a job (a dream, or one extraction part), counting its turns into the job's. */
  private async runLoop(
    job: RunningJob,
    session: LlmSession,
    system: string,
    kickoff: string,
    limits: Omit<LoopLimits, 'maxCostUsd'>,
  ): Promise<AgentLoopResult> {
    const turnsBefore = job.draft.turns;
    const loop = {
      model: session.model,
      system,
      kickoff,
      tools: JOB_TOOLS,
      toolbox: job.toolbox,
      meter: job.meter,
      limits: { ...limits, maxCostUsd: session.maxCostUsdPerJob },
      signal: job.controller.signal,
      onProgress: (turn: number) => {
        job.draft.turns = turnsBefore + turn;
        job.draft.loopTurn = turn;
        this.emitProgress(job);
      },
    };
    return session.backend === 'claude-code'
      ? runClaudeCodeLoop({ ...loop, claude: session.claude })
      : runAgentLoop({ ...loop, client: session.client });
  }

  async cancel(jobId: string): Promise<JobSummary> {
    const job = this.running.get(jobId);
    if (!job) return this.shown(summarizeJob(await this.getJob(jobId)));
    job.controller.abort();
    return this.shown(summarizeJob(await job.done));
  }

  /** Resolves with the final record once the job has stopped running. */
  async waitForJob(jobId: string): Promise<JobRecord> {
    const job = this.running.get(jobId);
    return job ? job.done : this.getJob(jobId);
  }

  /** Every job as the UI lists it, secrets in the summaries masked. */
  async listJobs(): Promise<JobSummary[]> {
    const stored = await this.records.list();
    return maskSummaries(
      this.masker,
      stored.map((record) => summarizeJob(this.current(record))),
    );
  }

  /** The whole record, as it is kept (the real text: applying and the CLI's `--apply` use it). */
  async getJob(jobId: string): Promise<JobRecord> {
    const job = this.running.get(jobId);
    return job ? this.snapshot(job) : this.current(await this.records.load(jobId));
  }

  /** The record as shown: secrets masked in its summary and proposals unless revealed (see jobMasking.ts). */
  async viewJob(jobId: string, options: { readonly revealSecrets?: boolean } = {}): Promise<JobRecordView> {
    return maskRecord(this.masker, await this.getJob(jobId), options.revealSecrets === true);
  }

  async apply(jobId: string, decisions: readonly ProposalDecision[]): Promise<ApplyOutcome> {
    const record = await this.decidable(jobId);
    if (this.applying.has(record.target.memoryDir)) throw new CodedError('CONFLICT', 'Another job is being applied to this memory');
    this.applying.add(record.target.memoryDir);
    try {
      const root = await writeRootOf(this.options.home, record.target.memoryDir);
      const outcome = await applyProposals(record, decisions, { writer: this.options.writer, root, now: this.now });
      const status: JobStatus = outcome.applied.length > 0 ? 'applied' : 'discarded';
      await this.records.save({ ...record, status, outcome });
      this.emitFinish({ ...record, status, outcome });
      return outcome;
    } finally {
      this.applying.delete(record.target.memoryDir);
    }
  }

  /** Rejects every proposal of a job. */
  async discard(jobId: string): Promise<JobSummary> {
    const record = await this.decidable(jobId);
    const outcome: ApplyOutcome = {
      at: this.now().toISOString(),
      applied: [],
      conflicts: [],
      rejected: record.proposals.map((p) => p.path),
      changeSetId: null,
    };
    const next: JobRecord = { ...record, status: 'discarded', outcome };
    await this.records.save(next);
    this.emitFinish(next);
    return this.shown(summarizeJob(next));
  }

  /** Cancels every running job and waits for their records to be saved. */
  async dispose(): Promise<void> {
    const jobs = [...this.running.values()];
    for (const job of jobs) job.controller.abort();
    await Promise.allSettled(jobs.map((job) => job.done));
    this.progressEmitter.dispose();
    this.finishEmitter.dispose();
  }

  private async decidable(jobId: string): Promise<JobRecord> {
    if (this.running.has(jobId)) throw new CodedError('CONFLICT', 'The job is still running');
    const record = await this.getJob(jobId);
    if (record.status === 'applied' || record.status === 'discarded')
      throw new CodedError('CONFLICT', `The job was already ${record.status}`);
    return record;
  }

  /** A stored record that says `running` but runs nowhere was cut short when the app stopped. */
  private current(record: JobRecord): JobRecord {
    if (record.status !== 'running' || this.running.has(record.id)) return record;
    return { ...record, status: 'failed', error: 'The app stopped while the job was running' };
  }

  /** Runs `start` while holding a memory folder, refusing if a job already works on it. */
  private async exclusive<T>(memoryDir: string, start: () => Promise<T>): Promise<T> {
    const busy = this.starting.has(memoryDir) || [...this.running.values()].some((job) => job.base.target.memoryDir === memoryDir);
    if (busy) throw new CodedError('CONFLICT', 'Another job is already working on this memory');
    this.starting.add(memoryDir);
    try {
      return await start();
    } finally {
      this.starting.delete(memoryDir);
    }
  }

  private async project(ref: ProjectRef): Promise<ProjectSummary> {
    const home = await this.options.home.getHome();
    const project = home.projects.find((p) => p.configRoot === ref.configRoot && p.slug === ref.slug);
    if (!project) throw new CodedError('NOT_FOUND', `No project ${ref.slug} under ${ref.configRoot}`);
    return project;
  }

  private async transcriptDirOf(ref: ProjectRef): Promise<string | null> {
    const dir = join(ref.configRoot, 'projects', ref.slug);
    const stats = await fs.lstat(dir).catch(() => null);
    return stats?.isDirectory() ? dir : null;
  }

  /** Transcript folders of the other projects that use this memory folder (sub-folders of the repository). */
  private async linkedTranscriptDirs(project: ProjectSummary): Promise<Record<string, string> | undefined> {
    const linked: Record<string, string> = {};
    for (const other of await this.options.home.projectsUsingMemoryDir(project.memoryDir)) {
      if (other.configRoot !== project.configRoot || other.slug === project.slug) continue;
      const dir = await this.transcriptDirOf(other);
      if (dir) linked[other.slug] = dir;
    }
    return Object.keys(linked).length > 0 ? linked : undefined;
  }

  /** A job's target is a folder the writer would write: one that leads outside its boundary is never sent to a model. */
  private async resolveTarget(target: JobTarget): Promise<JobTargetInfo> {
    if (target.kind === 'project') {
      const project = await this.project(target);
      await this.options.writer.checkRoot(autoMemoryRoot(project.memoryDir));
      const linkedTranscriptDirs = await this.linkedTranscriptDirs(project);
      return {
        target,
        memoryDir: project.memoryDir,
        transcriptDir: (await this.transcriptDirOf(target)) ?? (linkedTranscriptDirs ? Object.values(linkedTranscriptDirs)[0] : null),
        ...(linkedTranscriptDirs ? { linkedTranscriptDirs } : {}),
        label: project.path ?? project.displayName,
      };
    }
    const agent = (await listAgentMemories(this.options.home)).find((a) => a.dir === target.dir);
    if (!agent) throw new CodedError('NOT_FOUND', `No agent memory at ${target.dir}`);
    await this.options.writer.checkRoot(agentMemoryRoot(agent.dir, agentBoundary(agent)));
    return { target, memoryDir: agent.dir, transcriptDir: null, label: `the ${agent.agentType} agent (${agent.scope} scope)` };
  }

  private rangeOf(source: ExtractionSource): { fromTurn?: number; toTurn?: number } {
    return source.kind === 'session' ? { fromTurn: source.fromTurn, toTurn: source.toTurn } : {};
  }

  private async extractionInput(
    source: ExtractionSource,
  ): Promise<{ project: ProjectSummary; sessions: DigestSession[]; info: JobTargetInfo }> {
    const ref = { configRoot: source.configRoot, slug: source.slug };
    const project = await this.project(ref);
    const all = await listSessions(this.options.home, ref);
    let chosen;
    if (source.kind === 'session') {
      chosen = all.filter((s) => s.sessionId === source.sessionId);
      if (chosen.length === 0) throw new CodedError('NOT_FOUND', `No session ${source.sessionId} in ${project.displayName}`);
    } else {
      chosen = [...all]
        .sort((a, b) => b.mtime.localeCompare(a.mtime))
        .slice(0, source.count)
        .reverse();
    }
    await this.options.writer.checkRoot(autoMemoryRoot(project.memoryDir));
    const info: JobTargetInfo = {
      target: { kind: 'project', ...ref },
      memoryDir: project.memoryDir,
      transcriptDir: await this.transcriptDirOf(ref),
      label: project.path ?? project.displayName,
    };
    return { project, sessions: chosen.map((s) => ({ sessionId: s.sessionId, file: s.file })), info };
  }

  /** Records a new job, starts `work` in the background and returns at once. */
  private async begin(spec: JobSpec, work: (job: RunningJob) => Promise<void>): Promise<RunningJob> {
    const createdAt = this.now();
    let settle: (record: JobRecord) => void = () => undefined;
    const job: RunningJob = {
      base: {
        id: newJobId(spec.kind, createdAt),
        kind: spec.kind,
        trigger: spec.trigger,
        target: spec.target,
        source: spec.source,
        createdAt: createdAt.toISOString(),
        via: spec.session.backend,
        model: spec.session.model,
        promptHash: contentHash(`${spec.system}\n${JSON.stringify(JOB_TOOLS)}`),
      },
      draft: {
        status: 'running',
        finishedAt: null,
        turns: 0,
        loopTurn: 0,
        summary: null,
        error: null,
        stopReason: null,
        chunks: spec.chunks,
      },
      controller: new AbortController(),
      // A Claude subscription is counted in tokens, not dollars.
      meter: new UsageMeter(
        spec.session.model,
        spec.session.backend === 'claude-code' && spec.session.claude.billing === 'subscription' ? 'subscription' : 'list-price',
      ),
      toolbox: new JobToolbox(
        {
          memoryDir: spec.target.memoryDir,
          transcriptDir: spec.target.transcriptDir,
          linkedTranscriptDirs: spec.target.linkedTranscriptDirs,
        },
        spec.overlay,
        spec.kind,
      ),
      done: new Promise<JobRecord>((resolve) => (settle = resolve)),
    };
    this.running.set(job.base.id, job);
    await this.records.save(this.snapshot(job));
    this.emitProgress(job);
    void this.finish(job, work).then(settle);
    return job;
  }

  /** Runs a job's work, then records how it ended; never rejects. */
  private async finish(job: RunningJob, work: (job: RunningJob) => Promise<void>): Promise<JobRecord> {
    try {
      await work(job);
      job.draft.status = 'ready';
    } catch (error) {
      const aborted = job.controller.signal.aborted || (error instanceof LlmError && error.kind === 'aborted');
      job.draft.status = aborted ? 'cancelled' : 'failed';
      job.draft.error = aborted ? null : error instanceof Error ? error.message : String(error);
      // An unfinished dream proposes nothing; an extraction keeps the chunks that finished.
      if (job.base.kind === 'dream') job.toolbox.overlay.restore(new Map());
    }
    job.draft.finishedAt = this.now().toISOString();
    const record = this.snapshot(job);
    // Saved before the job leaves the running list, so no reader ever sees the stale 'running' record.
    await this.records.save(record).catch(() => undefined);
    this.running.delete(job.base.id);
    this.emitProgress(job, record);
    this.emitFinish(record);
    return record;
  }

  private snapshot(job: RunningJob): JobRecord {
    const { loopTurn: _loopTurn, ...draft } = job.draft;
    const proposals =
      draft.status === 'running'
        ? []
        : job.toolbox.overlay
            .changes()
            .map((change) => ({ ...toProposal(change), evidence: job.toolbox.evidence.citationsFor(change.path) }));
    const refused = job.toolbox.refused();
    return {
      ...job.base,
      ...draft,
      usage: job.meter.usage(),
      costUsd: job.meter.costUsd(),
      proposals,
      refused,
      proposalCount: proposals.length,
      refusedCount: refused.length + job.toolbox.refusedBeyondKept(),
      outcome: null,
    };
  }

  private emitProgress(job: RunningJob, record?: JobRecord): void {
    const progress: JobProgress = {
      jobId: job.base.id,
      kind: job.base.kind,
      status: record?.status ?? job.draft.status,
      phase: record ? 'finished' : job.toolbox.currentPhase(),
      turn: job.draft.loopTurn,
      maxTurns: job.base.kind === 'dream' ? this.limits.dream.maxTurns : this.limits.extraction.maxTurns,
      chunks: job.draft.chunks,
      filesTouched: job.toolbox.overlay.changes().map((c) => c.path),
      usage: job.meter.usage(),
      costUsd: job.meter.costUsd(),
    };
    this.progressEmitter.fire(progress);
  }

  private emitFinish(record: JobRecord): void {
    void this.shown(summarizeJob(record)).then((summary) => {
      this.finishEmitter.fire(summary);
    });
  }

  /** A summary as the UI shows it: its model summary with secrets masked. */
  private async shown(summary: JobSummary): Promise<JobSummary> {
    const [masked] = await maskSummaries(this.masker, [summary]);
    return masked;
  }
}
