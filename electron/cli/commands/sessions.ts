import { parseArgs } from 'node:util';
import type { PullRequestLink, SessionCatalogEntry, TokenTotals } from '../../../shared/model/catalog';
import type { TitleSource } from '../../../shared/model/session';
import { createCliEngine } from '../cliEngine';
import { CliError, type CliIo } from '../cliIo';
import { bindOptionValues } from '../optionValues';
import { formatTable } from '../textTable';

/** One element of `ccmem sessions --json`; a stable schema scripts rely on. */
export interface SessionJson {
  readonly sessionId: string;
  readonly slug: string;
  readonly path: string;
  /** False when the session's file is gone and only its `subagents/` folder is left (then `path` is where it was). */
  readonly mainTranscript: boolean;
  readonly title: string | null;
  readonly titleSource: TitleSource;
  readonly agentName: string | null;
  readonly mode: string | null;
  readonly prLinks: readonly PullRequestLink[];
  readonly firstTimestamp: string | null;
  readonly lastTimestamp: string | null;
  readonly userPrompts: number;
  readonly assistantTurns: number;
  readonly toolCalls: number;
  /** The main session's tokens only; each sub-agent lists its own. */
  readonly tokens: TokenTotals;
  readonly models: readonly string[];
  readonly subagents: readonly {
    readonly agentId: string;
    readonly agentType: string | null;
    readonly description: string | null;
    readonly tokens: TokenTotals;
    /** The sub-agent whose call started this one (nested), or null; `depth` 1 is the session's own. */
    readonly parentAgentId: string | null;
    readonly depth: number;
    readonly workflowRunId: string | null;
  }[];
  /** How many times the conversation was compacted. */
  readonly compactions: number;
  readonly memoryWrites: readonly string[];
  readonly versions: readonly string[];
  readonly hasSessionMemory: boolean;
  /** Claude Code deleted the transcript; the session comes from the app's archived copy (and cannot be resumed). */
  readonly archived: boolean;
  readonly bytes: number;
  readonly badLines: number;
}

function tokensJson(tokens: TokenTotals): TokenTotals {
  return { input: tokens.input, output: tokens.output, cacheCreation: tokens.cacheCreation, cacheRead: tokens.cacheRead };
}

export function toSessionJson(entry: SessionCatalogEntry): SessionJson {
  return {
    sessionId: entry.sessionId,
    slug: entry.slug,
    path: entry.path,
    mainTranscript: entry.mainTranscript,
    title: entry.title,
    titleSource: entry.titleSource,
    agentName: entry.agentName,
    mode: entry.mode,
    prLinks: entry.prLinks.map((link) => ({ url: link.url, number: link.number, repository: link.repository })),
    firstTimestamp: entry.firstTimestamp,
    lastTimestamp: entry.lastTimestamp,
    userPrompts: entry.userPrompts,
    assistantTurns: entry.assistantTurns,
    toolCalls: entry.toolCalls,
    tokens: tokensJson(entry.tokens),
    models: entry.models,
    subagents: entry.subagents.map((agent) => ({
      agentId: agent.agentId,
      agentType: agent.agentType,
      description: agent.description,
      tokens: tokensJson(agent.tokens),
      parentAgentId: agent.parentAgentId,
      depth: agent.depth,
      workflowRunId: agent.workflowRunId,
    })),
    compactions: entry.compactions.length,
    memoryWrites: entry.memoryWrites,
    versions: entry.versions,
    hasSessionMemory: entry.hasSessionMemory,
    archived: entry.archived,
    bytes: entry.bytes,
    badLines: entry.badLines,
  };
}

function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

function cut(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** `ccmem sessions [--project SLUG] [--json]`: every session, newest first, from the catalog. Reads only under the config root. */
export async function runSessions(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: bindOptionValues(argv, ['--project']),
    options: { project: { type: 'string' }, json: { type: 'boolean', default: false } },
    strict: true,
  });
  const engine = await createCliEngine(io, { readOnly: true });
  try {
    const home = await engine.home.getHome();
    await engine.catalog.buildNow();
    const sessions = engine.catalog.catalog.list(values.project === undefined ? {} : { slug: values.project });
    // A project deleted on purpose is still listed while the archive holds its sessions.
    if (values.project !== undefined && sessions.length === 0 && !home.projects.some((project) => project.slug === values.project)) {
      throw new CliError(`No project folder named ${values.project} in ${home.roots.map((root) => root.path).join(', ')}`);
    }
    if (values.json) {
      io.stdout(`${JSON.stringify(sessions.map(toSessionJson), null, 2)}\n`);
    } else if (sessions.length === 0) {
      io.stdout('No sessions found.\n');
    } else {
      const rows = [
        ['LAST ACTIVITY', 'PROJECT', 'TITLE', 'PROMPTS', 'TOOLS', 'OUT TOKENS', 'SUB-AGENTS', 'SESSION'],
        ...sessions.map((s) => [
          s.lastTimestamp ?? s.mtime,
          cut(s.slug, 40),
          cut(`${s.archived ? '[archived] ' : ''}${s.title ?? '(untitled)'}`, 60),
          String(s.userPrompts),
          String(s.toolCalls),
          compact(s.tokens.output),
          String(s.subagents.length),
          s.sessionId,
        ]),
      ];
      io.stdout(`${formatTable(rows)}\n`);
    }
    for (const root of home.roots) if (!root.exists) io.stderr(`warning: ${root.path} does not exist\n`);
    return 0;
  } finally {
    await engine.dispose();
  }
}
