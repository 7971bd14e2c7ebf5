import { imageText, poolText, sliceText, word, type ContentPools, type PoolText } from './contentPools';
import type { Era } from './eras';
import type { SeededRandom } from './seededRandom';
import { PAYLOAD, usageJson, type LineIdentity, type TranscriptFile, type Usage } from './TranscriptFile';

/** Claude Code compacts near the context limit; tokens are estimated as bytes / 4. */
const CONTEXT_LIMIT_TOKENS = 190_000;

/** What a tool call's result line needs, and whether the payload went to a spill file instead. */
export interface ToolOutcome {
  readonly content: string;
  readonly toolUseResult: string;
  readonly payload: PoolText | null;
}

/** Seen from a tool call: the finished sub-agent run it started. */
export interface SubagentOutcome {
  readonly agentId: string;
  readonly finalText: string;
  readonly usage: Usage;
  readonly toolCalls: number;
  readonly durationMs: number;
}

/** Calls a conversation makes back into its session: spill files, sub-agent runs, mirrors in the parent file. */
export interface ConversationHost {
  readonly pools: ContentPools;
  readonly random: SeededRandom;
  /** Bytes the session may still write across all its files. */
  remaining(): number;
  /** Stores a large tool output in `tool-results/`; returns the file's path (JSON-escaped). */
  spill(toolUseId: string, payload: PoolText): string;
  /** Runs a sub-agent for an agent tool call; null where sub-agents are not run (inside a sub-agent). */
  runSubagent:
    | ((call: {
        toolUseId: string;
        agentType: string;
        description: string;
        prompt: string;
        promptId: string;
        startMs: number;
      }) => SubagentOutcome)
    | null;
  /** Absolute memory folder (JSON-escaped) of the project, for memory reads and writes; null without one. */
  readonly memoryDir: string | null;
  /**
   * The project's MEMORY.md lines (JSON-escaped) as sessions have edited it so far, shared by the project's sessions
   * (written oldest first), so each Edit's `originalFile` is what the one before left; null without memory.
   */
  readonly memoryIndex: string[] | null;
  /** Called for every assistant message of a sub-agent, so 2.1.3x parents can mirror it as `progress`. */
  readonly onAssistantMessage: ((message: string, timestampMs: number) => void) | null;
}

/** A tool call: its name and input, and a way to produce its result once it has run. */
interface PlannedTool {
  readonly name: string;
  readonly input: string;
  readonly outcome: () => ToolOutcome;
}

type ToolKind = 'bash' | 'read' | 'read-image' | 'edit' | 'grep' | 'agent' | 'memory-read' | 'memory-write';

const BASH_COMMANDS = ['npm test', 'npm run build', 'git status', 'git diff --stat', 'ls -la src', 'cargo test', 'pytest -q', 'make lint'];
const AGENT_TYPES = ['Explore', 'general-purpose', 'Plan', 'code-reviewer', 'plugin:security-auditor'];

/** Output size classes: mostly small, a tail of big ones, and rare multi-megabyte outputs (long lines). */
function outputChars(random: SeededRandom, remaining: number): number {
  const r = random.next();
  const wanted =
    r < 0.45
      ? random.logUniform(20, 300)
      : r < 0.75
        ? random.logUniform(300, 4_000)
        : r < 0.92
          ? random.logUniform(4_000, 20_000)
          : r < 0.99
            ? random.logUniform(20_000, 300_000)
            : random.logUniform(1_000_000, 4_000_000);
  // Outputs are stored twice (message and toolUseResult); keep a small session small.
  return Math.max(20, Math.min(wanted, Math.floor(remaining / 3)));
}

/**
 * One chain of entries in one transcript file — the main conversation or a sub-agent's — written turn by
 * turn: prompts, split assistant chunks sharing `message.id`, tool calls and their results, compactions.
 */
export class Conversation {
  lastUuid: string | null = null;
  /** Recent turn ends, for the occasional rewind that forks the chain. */
  private readonly turnEnds: string[] = [];
  private contextTokens = 0;
  private bytesAtCompaction = 0;
  private compactEveryBytes: number;
  clockMs: number;
  compactions = 0;
  toolCalls = 0;
  readonly usage = { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 };

  constructor(
    readonly file: TranscriptFile,
    readonly identity: LineIdentity,
    private readonly host: ConversationHost,
    private readonly model: string,
    startMs: number,
  ) {
    this.clockMs = startMs;
    this.compactEveryBytes = host.random.logUniform(2_000_000, 6_000_000);
  }

  private get era(): Era {
    return this.identity.era;
  }

  private get random(): SeededRandom {
    return this.host.random;
  }

  private tick(minMs: number, maxMs: number): number {
    this.clockMs += this.random.int(minMs, maxMs);
    return this.clockMs;
  }

  private write(body: () => void): void {
    this.file.use(this.identity);
    body();
  }

  /** A user prompt; returns its uuid. `parentUuid` overrides the chain (rewinds). */
  prompt(text: string, options: { image?: boolean; parentUuid?: string | null; promptId?: string; uuid?: string } = {}): string {
    const uuid = options.uuid ?? this.random.uuid();
    const promptId = options.promptId ?? this.random.uuid();
    const parentUuid = options.parentUuid === undefined ? this.lastUuid : options.parentUuid;
    const timestampMs = this.tick(2_000, 90_000);
    const before = this.file.bytes;
    if (options.image) {
      const image = imageText(
        this.host.pools.base64,
        Math.min(this.random.logUniform(20_000, 800_000), this.host.remaining() >> 1),
        this.random,
      );
      this.write(() => this.file.userPromptWithImage({ parentUuid, uuid, promptId, timestampMs, text, image }));
    } else {
      this.write(() => this.file.userPrompt({ parentUuid, uuid, promptId, timestampMs, text }));
    }
    this.grow(this.file.bytes - before);
    this.lastUuid = uuid;
    return uuid;
  }

  /** A model response split into one line per content block; returns the uuid of the last chunk. */
  respond(blocks: readonly string[], stopReason: 'tool_use' | 'end_turn'): string {
    const messageId = `msg_01${this.random.base62(22)}`;
    const requestId = `req_011C${this.random.base62(20)}`;
    const usage: Usage = {
      input: this.random.int(3, 60),
      output: this.random.int(20, 2_500),
      cacheCreation: this.random.chance(0.3) ? this.random.int(200, 20_000) : 0,
      cacheRead: Math.min(this.contextTokens, CONTEXT_LIMIT_TOKENS),
    };
    this.usage.input += usage.input;
    this.usage.output += usage.output;
    this.usage.cacheCreation += usage.cacheCreation;
    this.usage.cacheRead += usage.cacheRead;
    const before = this.file.bytes;
    blocks.forEach((block, index) => {
      const last = index === blocks.length - 1;
      // Older builds wrote the early chunks of a response with no stop reason and a partial output count.
      const partial = this.era.chunksGrowUsage && !last;
      const chunkUsage = partial ? { ...usage, output: Math.max(1, Math.floor((usage.output * (index + 1)) / blocks.length / 2)) } : usage;
      const uuid = this.random.uuid();
      const timestampMs = this.tick(300, 6_000);
      this.write(() =>
        this.file.assistantChunk({
          parentUuid: this.lastUuid,
          uuid,
          timestampMs,
          model: this.model,
          messageId,
          requestId,
          block,
          stopReason: partial ? null : stopReason,
          usage: chunkUsage,
        }),
      );
      this.host.onAssistantMessage?.(
        `{"id":"${messageId}","type":"message","role":"assistant","model":"${this.model}","content":[${block}],"usage":${usageJson(chunkUsage, false)}}`,
        timestampMs,
      );
      this.lastUuid = uuid;
    });
    this.grow(this.file.bytes - before);
    return this.lastUuid as string;
  }

  thinkingBlock(): string {
    const text = this.era.thinkingText ? sliceText(this.host.pools.prose, this.random.logUniform(100, 3_000), this.random) : '';
    const signature = this.host.pools.base64.text.slice(0, this.random.int(300, 1_200) & ~3);
    return `{"type":"thinking","thinking":"${text}","signature":"${signature}"}`;
  }

  textBlock(chars: number): string {
    return `{"type":"text","text":"${sliceText(this.host.pools.prose, chars, this.random)}"}`;
  }

  /** One model step that calls a tool, then the tool's result. */
  toolStep(allowAgents: boolean): void {
    const kind = this.chooseTool(allowAgents);
    const toolUseId = `toolu_01${this.random.base62(22)}`;
    const { name, input, outcome: produceOutcome } = this.planTool(kind, toolUseId);
    const caller = this.era.modernEnvelope ? ',"caller":{"type":"direct"}' : '';
    const blocks: string[] = [];
    if (this.random.chance(0.5)) blocks.push(this.thinkingBlock());
    if (this.random.chance(0.6)) blocks.push(this.textBlock(this.random.logUniform(40, 600)));
    blocks.push(`{"type":"tool_use","id":"${toolUseId}","name":"${name}","input":${input}${caller}}`);
    const assistantUuid = this.respond(blocks, 'tool_use');
    this.toolCalls++;
    const outcome = produceOutcome();
    const uuid = this.random.uuid();
    const timestampMs = this.tick(200, 20_000);
    const before = this.file.bytes;
    this.write(() =>
      this.file.toolResult({
        parentUuid: this.lastUuid,
        uuid,
        timestampMs,
        toolUseId,
        sourceAssistantUuid: assistantUuid,
        content: outcome.content,
        toolUseResult: outcome.toolUseResult,
        payload: outcome.payload,
        isError: kind === 'bash' && this.random.chance(0.05),
      }),
    );
    this.grow(this.file.bytes - before);
    this.lastUuid = uuid;
    if (this.random.chance(0.004)) {
      const errorUuid = this.random.uuid();
      this.write(() => this.file.apiError({ parentUuid: this.lastUuid, uuid: errorUuid, timestampMs: this.tick(1_000, 30_000) }));
      this.lastUuid = errorUuid;
    }
  }

  /** The closing answer of a turn; remembered as a point a later prompt may rewind to. */
  finalAnswer(): string {
    const blocks = this.random.chance(0.4) ? [this.thinkingBlock()] : [];
    blocks.push(this.textBlock(this.random.logUniform(60, 4_000)));
    const uuid = this.respond(blocks, 'end_turn');
    this.turnEnds.push(uuid);
    if (this.turnEnds.length > 4) this.turnEnds.shift();
    return uuid;
  }

  /** A turn end two turns back, where an edited prompt or `/rewind` would fork the chain; null if none. */
  rewindPoint(): string | null {
    return this.turnEnds.length >= 3 ? this.turnEnds[this.turnEnds.length - 3] : null;
  }

  /** Whether the context is full enough for an auto-compaction. */
  wantsCompaction(): boolean {
    return this.era.compactions && this.file.bytes - this.bytesAtCompaction > this.compactEveryBytes;
  }

  /** Writes a compaction and continues the chain from its summary; returns the boundary's logical parent. */
  compact(): string {
    const logicalParentUuid = this.lastUuid as string;
    const boundaryUuid = this.random.uuid();
    const summaryUuid = this.random.uuid();
    const summary = sliceText(this.host.pools.prose, this.random.logUniform(3_000, 15_000), this.random);
    const preTokens = Math.max(100_000, Math.min(this.contextTokens, 200_000));
    this.write(() =>
      this.file.compaction({ logicalParentUuid, boundaryUuid, summaryUuid, timestampMs: this.tick(30_000, 150_000), preTokens, summary }),
    );
    this.lastUuid = summaryUuid;
    if (this.era.modernEnvelope) {
      for (let i = this.random.int(1, 3); i > 0; i--) {
        const uuid = this.random.uuid();
        const file = `${this.identity.cwd}/src/${word(this.random)}/${word(this.random)}.ts`;
        this.write(() =>
          this.file.attachment({
            parentUuid: this.lastUuid as string,
            uuid,
            timestampMs: this.clockMs,
            attachment: `{"type":"compact_file_reference","filename":"${file}","displayPath":"src/${word(this.random)}.ts"}`,
          }),
        );
        this.lastUuid = uuid;
      }
    }
    this.contextTokens = 20_000;
    this.bytesAtCompaction = this.file.bytes;
    this.compactEveryBytes = this.random.logUniform(2_000_000, 6_000_000);
    this.compactions++;
    return logicalParentUuid;
  }

  /** A chained system line (turn_duration, memory_saved). */
  systemLine(subtype: string, fields: string): void {
    const uuid = this.random.uuid();
    this.write(() => this.file.system({ parentUuid: this.lastUuid, uuid, timestampMs: this.tick(10, 500), subtype, fields }));
    this.lastUuid = uuid;
  }

  private grow(bytes: number): void {
    this.contextTokens += bytes >> 2;
  }

  private chooseTool(allowAgents: boolean): ToolKind {
    const r = this.random.next();
    if (allowAgents && this.host.runSubagent && r < 0.06 && this.host.remaining() > 30_000) return 'agent';
    if (this.host.memoryDir !== null && r < 0.08) return this.random.chance(0.5) ? 'memory-read' : 'memory-write';
    if (r < 0.09) return 'read-image';
    if (r < 0.4) return 'bash';
    if (r < 0.7) return 'read';
    if (r < 0.85) return 'edit';
    return 'grep';
  }

  private sourcePath(): string {
    return `${this.identity.cwd}/src/${word(this.random)}/${word(this.random)}.ts`;
  }

  /** An Edit adding one line to the project's MEMORY.md, with the whole index before it and the patch in its result. */
  private indexEdit(index: string[], name: string): PlannedTool {
    const filePath = `${this.host.memoryDir}/MEMORY.md`;
    const hook = sliceText(this.host.pools.prose, 60, this.random).replace(/[^A-Za-z0-9 ]/g, ' ');
    const line = `- [${name}](${name}.md) - ${hook}`;
    const lines = ['# Memory Index', '', ...index];
    const original = `${lines.join('\\n')}\\n`;
    const last = lines[lines.length - 1];
    index.push(line);
    return {
      name: 'Edit',
      input: `{"file_path":"${filePath}","old_string":"${last}","new_string":"${last}\\n${line}","replace_all":false}`,
      outcome: () => ({
        content: `"The file ${filePath} has been updated successfully."`,
        toolUseResult: `{"filePath":"${filePath}","oldString":"${last}","newString":"${last}\\n${line}","originalFile":"${original}","structuredPatch":[{"oldStart":${lines.length},"oldLines":1,"newStart":${lines.length},"newLines":2,"lines":[" ${last}","+${line}"]}],"userModified":false,"replaceAll":false}`,
        payload: null,
      }),
    };
  }

  /** The tool_use input of one call, and how to produce its result once the call has run. */
  private planTool(kind: ToolKind, toolUseId: string): PlannedTool {
    const pools = this.host.pools;
    const modern = this.era.modernEnvelope;
    switch (kind) {
      case 'bash':
        return {
          name: 'Bash',
          input: `{"command":"${this.random.pick(BASH_COMMANDS)}","description":"Run ${word(this.random)} ${word(this.random)}"}`,
          outcome: () => {
            const payload = poolText(pools.output, outputChars(this.random, this.host.remaining()), this.random);
            const flags = `"stderr":"","interrupted":false,"isImage":false${modern ? ',"noOutputExpected":false' : ''}`;
            if (this.era.spillsLargeOutputs && payload.chars > 20_000) {
              const path = this.host.spill(toolUseId, payload);
              const preview = poolText(pools.output, 2_000, this.random);
              const pointer = modern ? `,"persistedOutputPath":"${path}","persistedOutputSize":${payload.chars}` : '';
              return {
                content: `"<persisted-output>\\nOutput too large (${Math.round(payload.chars / 1024)}KB). Full output saved to: ${path}\\n\\nPreview (first 2KB):\\n${PAYLOAD}\\n...\\n</persisted-output>"`,
                toolUseResult: `{"stdout":"${PAYLOAD}",${flags}${pointer}}`,
                payload: preview,
              };
            }
            return { content: `"${PAYLOAD}"`, toolUseResult: `{"stdout":"${PAYLOAD}",${flags}}`, payload };
          },
        };
      case 'read': {
        const filePath = this.sourcePath();
        return {
          name: 'Read',
          input: `{"file_path":"${filePath}"}`,
          outcome: () => {
            // Claude Code's Read tool stops at about 25,000 tokens.
            const payload = poolText(pools.output, Math.min(100_000, outputChars(this.random, this.host.remaining())), this.random);
            const lines = Math.max(1, Math.round(payload.chars / 40));
            return {
              content: `"${PAYLOAD}"`,
              toolUseResult: `{"type":"text","file":{"filePath":"${filePath}","content":"${PAYLOAD}","numLines":${lines},"startLine":1,"totalLines":${lines}}}`,
              payload,
            };
          },
        };
      }
      case 'read-image':
        return {
          name: 'Read',
          input: `{"file_path":"${this.identity.cwd}/docs/${word(this.random)}.png"}`,
          outcome: () => {
            const chars = Math.min(this.random.logUniform(10_000, 400_000), this.host.remaining() >> 2);
            const payload = imageText(pools.base64, chars, this.random);
            return {
              content: `[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${PAYLOAD}"}}]`,
              toolUseResult: `{"type":"image","file":{"base64":"${PAYLOAD}","type":"image/png","originalSize":${Math.round((payload.chars * 3) / 4)}}}`,
              payload,
            };
          },
        };
      case 'memory-read': {
        const filePath = `${this.host.memoryDir}/MEMORY.md`;
        return {
          name: 'Read',
          input: `{"file_path":"${filePath}"}`,
          outcome: () => {
            const text = sliceText(pools.prose, this.random.logUniform(200, 3_000), this.random);
            return {
              content: `"${text}"`,
              toolUseResult: `{"type":"text","file":{"filePath":"${filePath}","content":"${text}","numLines":20,"startLine":1,"totalLines":20}}`,
              payload: null,
            };
          },
        };
      }
      case 'memory-write': {
        const name = `feedback_${word(this.random)}_${word(this.random)}`;
        // Half the memory writes add a topic file, half add its line to MEMORY.md with an Edit, whose result carries
        // the whole index before it and the patch (Claude Code 2.1.1xx+): what reconstruction replays.
        const index = this.host.memoryIndex;
        if (index !== null && this.random.chance(0.5)) return this.indexEdit(index, name);
        const filePath = `${this.host.memoryDir}/${name}.md`;
        const description = sliceText(pools.prose, 80, this.random).replace(/\\n/g, ' ');
        const content = `---\\nname: ${name}\\ndescription:${description}\\ntype: feedback\\n---\\n${sliceText(pools.prose, this.random.logUniform(100, 1_200), this.random)}\\n`;
        return {
          name: 'Write',
          input: `{"file_path":"${filePath}","content":"${content}"}`,
          outcome: () => ({
            content: `"File created successfully at: ${filePath}"`,
            toolUseResult: `{"type":"create","filePath":"${filePath}","content":"${content}","structuredPatch":[]}`,
            payload: null,
          }),
        };
      }
      case 'edit': {
        const filePath = this.sourcePath();
        const oldString = sliceText(pools.output, 80, this.random);
        const newString = sliceText(pools.output, 90, this.random);
        return {
          name: 'Edit',
          input: `{"file_path":"${filePath}","old_string":"${oldString}","new_string":"${newString}"}`,
          outcome: () => {
            // The whole file before the edit rides along in toolUseResult: the source of many very long lines.
            const payload = poolText(pools.output, outputChars(this.random, this.host.remaining()), this.random);
            return {
              content: `"The file ${filePath} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\\n    12\\t${newString}"`,
              toolUseResult: `{"filePath":"${filePath}","oldString":"${oldString}","newString":"${newString}","originalFile":"${PAYLOAD}","structuredPatch":[{"oldStart":12,"oldLines":1,"newStart":12,"newLines":1,"lines":["-${oldString}","+${newString}"]}],"userModified":false,"replaceAll":false}`,
              payload,
            };
          },
        };
      }
      case 'grep': {
        const pattern = word(this.random);
        return {
          name: 'Grep',
          input: `{"pattern":"${pattern}","path":"${this.identity.cwd}","output_mode":"files_with_matches"}`,
          outcome: () => {
            const files = Array.from({ length: this.random.int(0, 12) }, () => this.sourcePath());
            return {
              content: `"Found ${files.length} files\\n${files.join('\\n')}"`,
              toolUseResult: `{"mode":"files_with_matches","filenames":[${files.map((f) => `"${f}"`).join(',')}],"numFiles":${files.length}}`,
              payload: null,
            };
          },
        };
      }
      case 'agent': {
        const agentType = this.random.pick(AGENT_TYPES);
        const description = `Explore ${word(this.random)} ${word(this.random)}`;
        const prompt = sliceText(pools.prose, this.random.logUniform(200, 2_000), this.random);
        return {
          name: this.era.agentToolName,
          input: `{"description":"${description}","subagent_type":"${agentType}","prompt":"${prompt}"}`,
          outcome: () => this.agentOutcome({ toolUseId, agentType, description, prompt }),
        };
      }
    }
  }

  private agentOutcome(call: { toolUseId: string; agentType: string; description: string; prompt: string }): ToolOutcome {
    const run = this.host.runSubagent;
    if (!run) throw new Error('agent tool chosen where sub-agents are not run');
    const outcome = run({ ...call, promptId: this.random.uuid(), startMs: this.clockMs });
    this.clockMs += outcome.durationMs;
    const total = outcome.usage.input + outcome.usage.output + outcome.usage.cacheCreation + outcome.usage.cacheRead;
    const text = `[{"type":"text","text":"${outcome.finalText}"}]`;
    const totals = `"totalDurationMs":${outcome.durationMs},"totalTokens":${total},"totalToolUseCount":${outcome.toolCalls},"usage":${usageJson(outcome.usage, false)}`;
    const stats = `"toolStats":{"readCount":${outcome.toolCalls >> 1},"searchCount":${outcome.toolCalls >> 2},"bashCount":${outcome.toolCalls >> 2},"editFileCount":0,"linesAdded":0,"linesRemoved":0,"otherToolCount":0}`;
    const toolUseResult = this.era.modernEnvelope
      ? `{"status":"completed","prompt":"${call.prompt}","agentId":"${outcome.agentId}","agentType":"${call.agentType}","content":${text},${totals},${stats}}`
      : `{"content":${text},${totals}${outcome.agentId ? `,"agentId":"${outcome.agentId}"` : ''}}`;
    return { content: text, toolUseResult, payload: null };
  }
}
