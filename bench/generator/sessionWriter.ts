import { closeSync, openSync, readSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { sliceText, titleText, type ContentPools, type PoolText } from './contentPools';
import { Conversation, type ConversationHost, type SubagentOutcome } from './Conversation';
import type { Era } from './eras';
import type { FolderCache } from './FolderCache';
import type { SessionPlan } from './homePlan';
import { SeededRandom } from './seededRandom';
import { TranscriptFile, type LineIdentity } from './TranscriptFile';

/** Everything a session needs from its project and the generator run. */
export interface SessionContext {
  readonly seed: number;
  readonly projectDir: string;
  /** JSON-escaped launch cwd and the branches sessions are on. */
  readonly cwd: string;
  readonly branches: readonly string[];
  /** JSON-escaped absolute memory folder of the project, or null. */
  readonly memoryDir: string | null;
  /** The project's MEMORY.md lines as its sessions edit it (see `ConversationHost.memoryIndex`), or null. */
  readonly memoryIndex: string[] | null;
  readonly pools: ContentPools;
  /** Reused write buffers: one for the session file, one for sub-agent files. */
  readonly mainBuffer: Buffer;
  readonly agentBuffer: Buffer;
  /** A rare word planted in some prompts, for the search figures. */
  readonly needle: string;
  /** Files of sessions already written in this project, by session id (fork sources). */
  readonly writtenSessions: ReadonlyMap<string, string>;
  /** The last chain uuid of the project's previous session: where legacy `summary` lines point. */
  readonly previousLeafUuid: string | null;
  readonly folders: FolderCache;
}

export interface WrittenSession {
  readonly path: string;
  /** Bytes of the session file itself. */
  readonly transcriptBytes: number;
  readonly subagentFiles: number;
  readonly subagentBytes: number;
  readonly sidecarFiles: number;
  readonly sidecarBytes: number;
  readonly lastUuid: string | null;
  readonly compactions: number;
  readonly needleOccurrences: number;
}

const FORK_PREFIX_MAX_BYTES = 2_000_000;

function fileHistorySnapshot(messageId: string, timestampMs: number): string {
  return `{"type":"file-history-snapshot","messageId":"${messageId}","snapshot":{"messageId":"${messageId}","trackedFileBackups":{},"timestamp":"${new Date(timestampMs).toISOString()}"},"isSnapshotUpdate":false}`;
}

/** The last main-chain uuid in a copied prefix, where the fork's own turns continue. */
function lastChainUuid(text: string): string | null {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i].includes('"isSidechain":false')) continue;
    try {
      const entry = JSON.parse(lines[i]) as { uuid?: unknown };
      if (typeof entry.uuid === 'string') return entry.uuid;
    } catch {
      // A prefix never ends inside a line, but a partial line would simply not be a fork point.
    }
  }
  return null;
}

/**
 * Stores a large tool output in the session's `tool-results/` (sub-agents' spills land there too, §2.6), dated when the
 * tool answered, as Claude Code's are: a spill dated when the generator ran would be newer than every session.
 */
function spillToolOutput(folders: FolderCache, sessionDir: string, toolUseId: string, payload: PoolText, atMs: number): string {
  const target = join(folders.ensure(join(sessionDir, 'tool-results')), `${toolUseId}.txt`);
  // Spill files hold the pool's escaped text as is: nothing parses them, only their size matters here.
  const source = payload.pool.bytes;
  if (!source) throw new Error('spilled outputs are cut from an ASCII pool, whose slices are byte ranges');
  const fd = openSync(target, 'wx');
  for (const [start, end] of payload.slices) writeSync(fd, source, start, end - start);
  closeSync(fd);
  utimesSync(target, atMs / 1000, atMs / 1000);
  return JSON.stringify(target).slice(1, -1);
}

function readPrefix(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(maxBytes);
    const read = readSync(fd, buffer, 0, maxBytes, 0);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** Session-memory notes in Claude Code's default template, filled in (claude-code-state.md §7.8). */
function sessionMemoryText(pools: ContentPools, random: SeededRandom): string {
  const sections = [
    ['Session Title', 'A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler'],
    ['Current State', 'What is actively being worked on right now? Pending tasks not yet completed. Immediate next steps.'],
    ['Task specification', 'What did the user ask to build? Any design decisions or other explanatory context'],
    ['Files and Functions', 'What are the important files? In short, what do they contain and why are they relevant?'],
    [
      'Errors & Corrections',
      'Errors encountered and how they were fixed. What did the user correct? What approaches failed and should not be tried again?',
    ],
    ['Worklog', 'Step by step, what was attempted, done? Very terse summary for each step'],
  ];
  const body = sections
    .map(
      ([title, hint]) =>
        `# ${title}\n_${hint}_\n\n${JSON.parse(`"${sliceText(pools.prose, random.logUniform(80, 1_500), random)}"`) as string}\n`,
    )
    .join('\n');
  return `\n${body}`;
}

/**
 * Writes one session: its transcript, sub-agent transcripts in its era's layout, spilled tool outputs and
 * session-memory notes, until the session's byte budget is spent. Deterministic for a given seed and plan.
 */
export function writeSession(plan: SessionPlan, context: SessionContext): WrittenSession {
  const random = new SeededRandom(context.seed, `session:${plan.sessionId}`);
  const era = plan.era;
  const path = join(context.projectDir, `${plan.sessionId}.jsonl`);
  const sessionDir = join(context.projectDir, plan.sessionId);
  const identity: LineIdentity = {
    era,
    sessionId: plan.sessionId,
    cwd: context.cwd,
    gitBranch: random.pick(context.branches),
    isSidechain: false,
    agentId: null,
    attributionAgent: null,
  };
  const file = new TranscriptFile(path, context.mainBuffer, identity);
  let subagentFiles = 0;
  let subagentBytes = 0;
  let sidecarFiles = 0;
  let sidecarBytes = 0;
  let needleOccurrences = 0;
  // The largest transcript's budget is its own file's size; sub-agents and spills come on top.
  const spent = plan.role === 'largest' ? () => file.bytes : () => file.bytes + subagentBytes + sidecarBytes;
  const remaining = () => Math.max(0, plan.budgetBytes - spent());
  const model = random.pick(era.models);

  const host: ConversationHost = {
    pools: context.pools,
    random,
    remaining,
    memoryDir: context.memoryDir,
    memoryIndex: context.memoryIndex,
    onAssistantMessage: null,
    spill(toolUseId: string, payload: PoolText): string {
      sidecarFiles++;
      sidecarBytes += payload.chars;
      return spillToolOutput(context.folders, sessionDir, toolUseId, payload, main.clockMs);
    },
    runSubagent: (call) => {
      const outcome = runSubagent(call, { era, context, random, main, file, sessionDir, remaining, spill: host.spill });
      subagentFiles += outcome.files;
      subagentBytes += outcome.bytes;
      return outcome;
    },
  };
  const main = new Conversation(file, identity, host, model, plan.startMs);

  if (era.summaryLines && context.previousLeafUuid && random.chance(0.5)) {
    file.metadata(`{"type":"summary","summary":"${titleText(random)}","leafUuid":"${context.previousLeafUuid}"}`);
  }
  const forkSource = plan.forkOf === null ? undefined : context.writtenSessions.get(plan.forkOf);
  if (plan.forkOf !== null && forkSource) {
    const source = readPrefix(forkSource, Math.min(FORK_PREFIX_MAX_BYTES, Math.floor(plan.budgetBytes * 0.8)));
    const cut = source.lastIndexOf(10, Math.floor(source.length * (0.3 + 0.6 * random.next()))) + 1;
    if (cut > 0) {
      // `--fork-session` copies the history and re-stamps it with the new session id; uuids stay the same.
      const prefix = source.subarray(0, cut).toString('utf8').replaceAll(plan.forkOf, plan.sessionId);
      file.raw(Buffer.from(prefix, 'utf8'));
      main.lastUuid = lastChainUuid(prefix);
      needleOccurrences += prefix.split(context.needle).length - 1;
    }
  }

  const title = titleText(random);
  let first = true;
  while (first || remaining() > 0) {
    let text = sliceText(context.pools.prose, random.logUniform(20, 1_500), random);
    // The newest session of the main project always mentions the needle, so a search has a recent hit.
    const withNeedle = random.chance(0.004) || (first && plan.role === 'append-target');
    if (withNeedle) text = `${context.needle}${text}`;
    const rewind = !first && random.chance(0.03) ? main.rewindPoint() : null;
    const promptUuid = random.uuid();
    if (era.fileHistory) file.metadata(fileHistorySnapshot(promptUuid, main.clockMs));
    main.prompt(text, { image: random.chance(0.03), parentUuid: rewind ?? undefined, uuid: promptUuid });
    if (withNeedle) needleOccurrences++;
    const steps = Math.min(12, Math.floor(-Math.log(1 - random.next()) * 2.5));
    for (let step = 0; step < steps && (remaining() > 0 || step === 0); step++) main.toolStep(true);
    const leaf = main.finalAnswer();
    if (era.modernEnvelope && random.chance(0.5)) {
      main.systemLine('turn_duration', `"durationMs":${random.int(2_000, 600_000)},"messageCount":${steps * 2 + 2}`);
    }
    if (era.modernEnvelope && context.memoryDir !== null && random.chance(0.02)) {
      main.systemLine('memory_saved', `"writtenPaths":["${context.memoryDir}/feedback_${random.hex(3)}.md"],"verb":"Saved","level":"info"`);
    }
    if (era.perTurnMetadata) {
      file.metadata(`{"type":"ai-title","sessionId":"${plan.sessionId}","aiTitle":"${title}"}`);
      file.metadata(
        `{"type":"last-prompt","lastPrompt":"${text.slice(0, 200).replace(/\\+$/, '')}","leafUuid":"${leaf}","sessionId":"${plan.sessionId}"}`,
      );
      if (withNeedle) needleOccurrences++;
      file.metadata(`{"type":"permission-mode","permissionMode":"default","sessionId":"${plan.sessionId}"}`);
    }
    if (era.fileHistory && random.chance(0.05)) {
      const queued = sliceText(context.pools.prose, random.logUniform(20, 300), random);
      const at = new Date(main.clockMs).toISOString();
      file.metadata(
        `{"type":"queue-operation","operation":"enqueue","timestamp":"${at}","sessionId":"${plan.sessionId}","content":"${queued}"}`,
      );
      file.metadata(`{"type":"queue-operation","operation":"dequeue","timestamp":"${at}","sessionId":"${plan.sessionId}"}`);
    }
    if (main.wantsCompaction() && remaining() > 100_000) {
      main.compact();
      if (era.subagentLayout === 'subagents') {
        const helper = writeCompactionHelper({ era, context, random, sessionDir, identity, model, startMs: main.clockMs });
        subagentFiles++;
        subagentBytes += helper;
      }
    }
    first = false;
  }
  if (era.modernEnvelope && random.chance(0.05)) {
    file.metadata(`{"type":"custom-title","customTitle":"${titleText(random)}","sessionId":"${plan.sessionId}"}`);
  }
  if (plan.truncatedTail) {
    file.truncatedLine(
      `{"parentUuid":"${main.lastUuid}","isSidechain":false,"type":"assistant","message":{"model":"${model}","content":[{"type":"text","text":"${sliceText(context.pools.prose, 400, random)}"}]}}`,
    );
  }
  file.close();
  if (era.id === 'v2.1-late' && plan.budgetBytes > 60_000 && random.chance(0.25)) {
    const notes = join(context.folders.ensure(join(sessionDir, 'session-memory')), 'summary.md');
    const text = sessionMemoryText(context.pools, random);
    writeFileSync(notes, text, { flag: 'wx' });
    utimesSync(notes, main.clockMs / 1000, main.clockMs / 1000);
    sidecarFiles++;
    sidecarBytes += Buffer.byteLength(text);
  }
  return {
    path,
    transcriptBytes: file.bytes,
    subagentFiles,
    subagentBytes,
    sidecarFiles,
    sidecarBytes,
    lastUuid: main.lastUuid,
    compactions: main.compactions,
    needleOccurrences,
  };
}

interface SubagentRunContext {
  readonly era: Era;
  readonly context: SessionContext;
  readonly random: SeededRandom;
  readonly main: Conversation;
  readonly file: TranscriptFile;
  readonly sessionDir: string;
  /** What the whole session may still write. */
  readonly remaining: () => number;
  readonly spill: ConversationHost['spill'];
}

/** A sub-agent run in the era's layout: inline sidechain lines (1.0), a sibling file (2.0), or `subagents/` (2.1). */
function runSubagent(
  call: { toolUseId: string; agentType: string; description: string; prompt: string; promptId: string; startMs: number },
  run: SubagentRunContext,
): SubagentOutcome & { files: number; bytes: number } {
  const { era, context, random, main } = run;
  const layout = era.subagentLayout;
  const agentId =
    layout === 'inline' ? '' : era.agentIdPrefix + random.hex(Math.ceil(era.agentIdHexDigits / 2)).slice(0, era.agentIdHexDigits);
  const identity: LineIdentity = {
    ...main.identity,
    isSidechain: true,
    agentId: layout === 'inline' ? null : agentId,
    attributionAgent: era.modernEnvelope ? call.agentType : null,
  };
  let file = run.file;
  let path: string | null = null;
  if (layout === 'sibling') path = join(context.projectDir, `agent-${agentId}.jsonl`);
  if (layout === 'subagents' || layout === 'subagents-meta') {
    path = join(context.folders.ensure(join(run.sessionDir, 'subagents')), `agent-${agentId}.jsonl`);
  }
  if (path) file = new TranscriptFile(path, context.agentBuffer, identity);
  const budget = Math.min(Math.floor(run.remaining() * 0.3), random.logUniform(4_000, 400_000));
  const startBytes = file.bytes;
  const written = () => file.bytes - startBytes;
  const host: ConversationHost = {
    pools: context.pools,
    random,
    remaining: () => Math.max(0, budget - written()),
    memoryDir: null,
    memoryIndex: null,
    spill: run.spill,
    runSubagent: null,
    onAssistantMessage: era.progressMirrors
      ? (message, timestampMs) => {
          // 2.1.3x parents mirror every sub-agent message as a chained `progress` line (readers bridge them).
          const uuid = random.uuid();
          run.file.use(main.identity);
          run.file.agentProgress({
            parentUuid: main.lastUuid,
            uuid,
            timestampMs,
            agentId,
            parentToolUseId: call.toolUseId,
            mirrorId: random.base62(24),
            message,
          });
          main.lastUuid = uuid;
        }
      : null,
  };
  const agent = new Conversation(file, identity, host, era.subagentModel, call.startMs);
  agent.prompt(call.prompt, { parentUuid: null, promptId: call.promptId });
  do agent.toolStep(false);
  while (host.remaining() > 0 && agent.toolCalls < 40);
  const finalText = sliceText(context.pools.prose, random.logUniform(200, 3_000), random);
  agent.respond([`{"type":"text","text":"${finalText}"}`], 'end_turn');
  let files = 0;
  let bytes = 0;
  if (path) {
    file.close();
    files++;
    bytes += file.bytes;
    if (layout === 'subagents-meta') {
      const toolUse = random.chance(0.5) ? `,"toolUseId":"${call.toolUseId}"` : '';
      const meta = `{"agentType":"${call.agentType}","description":"${call.description}"${toolUse}}`;
      writeFileSync(path.replace(/\.jsonl$/, '.meta.json'), meta, { flag: 'wx' });
      bytes += meta.length;
    }
  }
  return { agentId, finalText, usage: agent.usage, toolCalls: agent.toolCalls, durationMs: agent.clockMs - call.startMs, files, bytes };
}

/** 2.1.3x ran the compaction summariser as a sidechain in `subagents/agent-acompact-<6hex>.jsonl`. */
function writeCompactionHelper(o: {
  era: Era;
  context: SessionContext;
  random: SeededRandom;
  sessionDir: string;
  identity: LineIdentity;
  model: string;
  startMs: number;
}): number {
  const agentId = `acompact-${o.random.hex(3)}`;
  const identity: LineIdentity = { ...o.identity, isSidechain: true, agentId };
  const folder = o.context.folders.ensure(join(o.sessionDir, 'subagents'));
  const file = new TranscriptFile(join(folder, `agent-${agentId}.jsonl`), o.context.agentBuffer, identity);
  const host: ConversationHost = {
    pools: o.context.pools,
    random: o.random,
    remaining: () => 0,
    memoryDir: null,
    memoryIndex: null,
    spill: () => '',
    runSubagent: null,
    onAssistantMessage: null,
  };
  const helper = new Conversation(file, identity, host, o.model, o.startMs);
  helper.prompt('Your task is to create a detailed summary of the conversation so far.', { parentUuid: null });
  helper.finalAnswer();
  file.close();
  return file.bytes;
}
