import { utimesSync } from 'node:fs';
import { BufferedFileWriter } from './BufferedFileWriter';
import type { PoolText } from './contentPools';
import type { Era } from './eras';

/** Who writes the lines: the main conversation, or a sub-agent (inline in 1.0, its own file later). */
export interface LineIdentity {
  readonly era: Era;
  readonly sessionId: string;
  /** JSON-escaped cwd. */
  readonly cwd: string;
  /** JSON-escaped git branch. */
  readonly gitBranch: string;
  readonly isSidechain: boolean;
  readonly agentId: string | null;
  /** Agent type stamped on a sub-agent's assistant lines (`attributionAgent`, 2.1.1xx). */
  readonly attributionAgent: string | null;
}

export interface Usage {
  readonly input: number;
  readonly output: number;
  readonly cacheCreation: number;
  readonly cacheRead: number;
}

/**
 * Writes the lines of one transcript file in the byte layout Claude Code uses for the given era
 * (claude-code-state.md §2). Values spliced into templates are already JSON-escaped; only the
 * envelope's fixed parts are built here, once per identity.
 */
export class TranscriptFile {
  private readonly writer: BufferedFileWriter;
  private tail: string;
  private lastTimestampMs = 0;
  lines = 0;

  constructor(
    readonly path: string,
    buffer: Buffer,
    private identity: LineIdentity,
  ) {
    this.writer = new BufferedFileWriter(path, buffer);
    this.tail = envelopeTail(identity);
  }

  get bytes(): number {
    return this.writer.bytesWritten;
  }

  get era(): Era {
    return this.identity.era;
  }

  /** Lines written next carry this identity; inline sidechains (1.0) share the file with the main conversation. */
  use(identity: LineIdentity): void {
    if (identity === this.identity) return;
    this.identity = identity;
    this.tail = envelopeTail(identity);
  }

  /** `{"parentUuid":…,"isSidechain":…[,"agentId":…]` */
  private head(parentUuid: string | null): string {
    const parent = parentUuid === null ? 'null' : `"${parentUuid}"`;
    const agent = this.identity.agentId === null ? '' : `,"agentId":"${this.identity.agentId}"`;
    return `{"parentUuid":${parent},"isSidechain":${this.identity.isSidechain}${agent}`;
  }

  private stamp(timestampMs: number): string {
    this.lastTimestampMs = timestampMs;
    return new Date(timestampMs).toISOString();
  }

  private line(text: string): void {
    this.writer.text(text);
    this.lines++;
  }

  userPrompt(o: { parentUuid: string | null; uuid: string; promptId: string; timestampMs: number; text: string }): void {
    const promptId = this.identity.era.modernEnvelope ? `,"promptId":"${o.promptId}"` : '';
    const mode = this.identity.era.modernEnvelope && !this.identity.isSidechain ? '"permissionMode":"default",' : '';
    this.line(
      `${this.head(o.parentUuid)}${promptId},"type":"user","message":{"role":"user","content":"${o.text}"},"uuid":"${o.uuid}","timestamp":"${this.stamp(o.timestampMs)}",${mode}${this.tail}}\n`,
    );
  }

  /** A prompt with a pasted image: content becomes a text block and an inline base64 image block. */
  userPromptWithImage(o: {
    parentUuid: string | null;
    uuid: string;
    promptId: string;
    timestampMs: number;
    text: string;
    image: PoolText;
  }): void {
    const promptId = this.identity.era.modernEnvelope ? `,"promptId":"${o.promptId}"` : '';
    this.writer.text(
      `${this.head(o.parentUuid)}${promptId},"type":"user","message":{"role":"user","content":[{"type":"text","text":"${o.text}"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"`,
    );
    this.poolText(o.image);
    this.line(`"}}]},"imagePasteIds":[1],"uuid":"${o.uuid}","timestamp":"${this.stamp(o.timestampMs)}",${this.tail}}\n`);
  }

  /** One split chunk of an assistant response: `block` is the one content block this line carries. */
  assistantChunk(o: {
    parentUuid: string | null;
    uuid: string;
    timestampMs: number;
    model: string;
    messageId: string;
    requestId: string;
    block: string;
    stopReason: string | null;
    usage: Usage;
  }): void {
    const era = this.identity.era;
    const stop = o.stopReason === null ? 'null' : `"${o.stopReason}"`;
    const details = era.modernEnvelope ? '"stop_details":null,' : '';
    const attribution = this.identity.attributionAgent === null ? '' : `"attributionAgent":"${this.identity.attributionAgent}",`;
    this.line(
      `${this.head(o.parentUuid)},"message":{"model":"${o.model}","id":"${o.messageId}","type":"message","role":"assistant","content":[${o.block}],"stop_reason":${stop},"stop_sequence":null,${details}"usage":${usageJson(o.usage, era.modernEnvelope)}},"requestId":"${o.requestId}","type":"assistant","uuid":"${o.uuid}","timestamp":"${this.stamp(o.timestampMs)}",${attribution}${this.tail}}\n`,
    );
  }

  /** A harness-made error turn: `<synthetic>` model, zero usage, `isApiErrorMessage` (never counted for usage). */
  apiError(o: { parentUuid: string | null; uuid: string; timestampMs: number }): void {
    this.line(
      `${this.head(o.parentUuid)},"type":"assistant","message":{"id":"${o.uuid}","container":null,"model":"<synthetic>","role":"assistant","stop_reason":"stop_sequence","stop_sequence":"","type":"message","usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0},"content":[{"type":"text","text":"API Error: 529 {\\"type\\":\\"error\\",\\"error\\":{\\"type\\":\\"overloaded_error\\",\\"message\\":\\"Overloaded\\"}}"}]},"isApiErrorMessage":true,"uuid":"${o.uuid}","timestamp":"${this.stamp(o.timestampMs)}",${this.tail}}\n`,
    );
  }

  /**
   * A tool result line. `content` is the tool_result's content (a JSON value, with `{payload}` standing for
   * the pool text); `toolUseResult` likewise; each placeholder is replaced by the same pool slices, as
   * Claude Code stores a Bash output both in the message and in `toolUseResult`.
   */
  toolResult(o: {
    parentUuid: string | null;
    uuid: string;
    timestampMs: number;
    toolUseId: string;
    sourceAssistantUuid: string;
    content: string;
    toolUseResult: string;
    payload: PoolText | null;
    isError: boolean;
  }): void {
    const era = this.identity.era;
    const source = era.modernEnvelope ? `,"sourceToolAssistantUUID":"${o.sourceAssistantUuid}"` : '';
    const error = o.isError ? ',"is_error":true' : '';
    this.splice(
      `${this.head(o.parentUuid)},"type":"user","message":{"role":"user","content":[{"tool_use_id":"${o.toolUseId}","type":"tool_result","content":${o.content}${error}}]},"uuid":"${o.uuid}","timestamp":"${this.stamp(o.timestampMs)}","toolUseResult":${o.toolUseResult}${source},${this.tail}}\n`,
      o.payload,
    );
    this.lines++;
  }

  /** The auto-compaction pair: `compact_boundary` (parent nulled, `logicalParentUuid` kept) and the summary. */
  compaction(o: {
    logicalParentUuid: string;
    boundaryUuid: string;
    summaryUuid: string;
    timestampMs: number;
    preTokens: number;
    summary: string;
  }): void {
    const era = this.identity.era;
    const post = era.modernEnvelope ? `,"postTokens":${Math.round(o.preTokens / 20)},"durationMs":${40_000 + (o.preTokens % 90_000)}` : '';
    const stamp = this.stamp(o.timestampMs);
    this.line(
      `{"parentUuid":null,"logicalParentUuid":"${o.logicalParentUuid}","isSidechain":false,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"timestamp":"${stamp}","uuid":"${o.boundaryUuid}","level":"info","compactMetadata":{"trigger":"auto","preTokens":${o.preTokens}${post}},${this.tail}}\n`,
    );
    this.line(
      `{"parentUuid":"${o.boundaryUuid}","isSidechain":false,"type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\\n\\nSummary:\\n1. Primary Request and Intent:\\n   ${o.summary}"},"isVisibleInTranscriptOnly":true,"isCompactSummary":true,"uuid":"${o.summaryUuid}","timestamp":"${stamp}",${this.tail}}\n`,
    );
  }

  /** A chained attachment entry (re-attached file after a compaction, 2.1.x). */
  attachment(o: { parentUuid: string; uuid: string; timestampMs: number; attachment: string }): void {
    this.line(
      `${this.head(o.parentUuid)},"type":"attachment","attachment":${o.attachment},"uuid":"${o.uuid}","timestamp":"${this.stamp(o.timestampMs)}",${this.tail}}\n`,
    );
  }

  /** A chained `system` entry; `fields` are the subtype's own fields, already JSON. */
  system(o: { parentUuid: string | null; uuid: string; timestampMs: number; subtype: string; fields: string }): void {
    this.line(
      `${this.head(o.parentUuid)},"type":"system","subtype":"${o.subtype}",${o.fields},"timestamp":"${this.stamp(o.timestampMs)}","uuid":"${o.uuid}","isMeta":false,${this.tail}}\n`,
    );
  }

  /** A legacy `progress` entry mirroring a sub-agent message in the parent file (chained, so readers must bridge it). */
  agentProgress(o: {
    parentUuid: string | null;
    uuid: string;
    timestampMs: number;
    agentId: string;
    parentToolUseId: string;
    mirrorId: string;
    message: string;
  }): void {
    const stamp = this.stamp(o.timestampMs);
    this.line(
      `${this.head(o.parentUuid)},"type":"progress","data":{"message":{"type":"assistant","message":${o.message},"timestamp":"${stamp}"},"type":"agent_progress","prompt":"","agentId":"${o.agentId}"},"toolUseID":"agent_msg_${o.mirrorId}","parentToolUseID":"${o.parentToolUseId}","uuid":"${o.uuid}","timestamp":"${stamp}",${this.tail}}\n`,
    );
  }

  /** A metadata line (no uuid, no parent): titles, last prompt, permission mode, snapshots, queue operations. */
  metadata(json: string): void {
    this.line(`${json}\n`);
  }

  /** Bytes copied verbatim (the prefix of a forked session). */
  raw(bytes: Buffer): void {
    this.writer.bytes(bytes, 0, bytes.length);
  }

  /** Half of a line and no newline: how a file looks while Claude Code is writing it. */
  truncatedLine(text: string): void {
    this.writer.text(text.slice(0, Math.max(1, text.length >> 1)));
  }

  /** Closes the file and dates it like Claude Code leaves it: modified at its last line. */
  close(): void {
    this.writer.close();
    if (this.lastTimestampMs > 0) utimesSync(this.path, this.lastTimestampMs / 1000, this.lastTimestampMs / 1000);
  }

  private poolText(text: PoolText): void {
    const { pool } = text;
    for (const [start, end] of text.slices) {
      if (pool.bytes) this.writer.bytes(pool.bytes, start, end);
      else this.writer.text(pool.text.slice(start, end));
    }
  }

  /** Writes `template` with every `{payload}` replaced by the pool text. */
  private splice(template: string, payload: PoolText | null): void {
    if (payload === null) {
      this.writer.text(template);
      return;
    }
    const parts = template.split(PAYLOAD);
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) this.poolText(payload);
      this.writer.text(parts[i]);
    }
  }
}

/** Stands for the pool text inside a template passed to `toolResult`. */
export const PAYLOAD = '{payload}';

function envelopeTail(identity: LineIdentity): string {
  const entrypoint = identity.era.modernEnvelope ? '"entrypoint":"cli",' : '';
  return `"userType":"external",${entrypoint}"cwd":"${identity.cwd}","sessionId":"${identity.sessionId}","version":"${identity.era.version}","gitBranch":"${identity.gitBranch}"`;
}

/** The `usage` object; 2.1.1xx adds server tool use, the cache split, geo, iterations and speed. */
export function usageJson(usage: Usage, modern: boolean): string {
  const base = `"input_tokens":${usage.input},"cache_creation_input_tokens":${usage.cacheCreation},"cache_read_input_tokens":${usage.cacheRead},"output_tokens":${usage.output}`;
  if (!modern) return `{${base},"service_tier":"standard"}`;
  return `{${base},"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":${usage.cacheCreation},"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[{"input_tokens":${usage.input},"output_tokens":${usage.output},"cache_read_input_tokens":${usage.cacheRead},"cache_creation_input_tokens":${usage.cacheCreation},"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":${usage.cacheCreation}},"type":"message"}],"speed":"standard"}`;
}
