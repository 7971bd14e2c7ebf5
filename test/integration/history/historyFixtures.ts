/**
 * Helpers for history tests: a HistoryService over a real scenario home, and transcript lines shaped like
 * the ones Claude Code writes when a session edits memory (claude-code-state.md §2.5, §2.7).
 */
import { appendFile, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { HistoryService } from '../../../electron/core/history/HistoryService';
import { HistoryStore } from '../../../electron/core/changes/HistoryStore';
import { HomeService } from '../../../electron/core/home/HomeService';
import { seededUuid, type ScenarioHome } from '../../fixtures/scenarioHome';
import { ChangeSetWriter } from '../../../electron/core/changes/changeSetWriter';

export interface OpenHistory {
  readonly home: HomeService;
  readonly store: HistoryStore;
  readonly history: HistoryService;
  readonly dataDir: string;
  /** Closes this instance (an app restart is `close()` then `openHistory()` on the same data folder). */
  close(): Promise<void>;
}

export function openHistory(scenario: ScenarioHome, dataDir = join(scenario.tmp, 'data')): OpenHistory {
  const home = new HomeService({
    roots: [{ path: scenario.root, source: 'CLAUDE_CONFIG_DIR' }],
    dataDir,
    demoHomeSource: null,
    shell: 'cli',
    readOnly: false,
  });
  const historyDir = join(dataDir, 'history');
  const store = new HistoryStore(historyDir);
  const history = new HistoryService({ home, store, historyDir, live: null, writer: new ChangeSetWriter({ history: store }) });
  return {
    home,
    store,
    history,
    dataDir,
    async close() {
      await history.dispose();
      home.dispose();
    },
  };
}

interface LineBase {
  readonly sessionId: string;
  readonly cwd: string;
  readonly time: Date;
  readonly uuid?: string;
  readonly parentUuid?: string | null;
}

function envelope(base: LineBase, seed: string) {
  return {
    parentUuid: base.parentUuid ?? null,
    isSidechain: false,
    uuid: base.uuid ?? seededUuid(`${base.sessionId}:${seed}:${base.time.toISOString()}`),
    timestamp: base.time.toISOString(),
    userType: 'external',
    entrypoint: 'cli',
    cwd: base.cwd,
    sessionId: base.sessionId,
    version: '2.1.128',
    gitBranch: 'main',
  };
}

/** A typed prompt: where a turn starts. */
export function promptLine(base: LineBase, text: string): string {
  return JSON.stringify({ ...envelope(base, 'prompt'), type: 'user', message: { role: 'user', content: text }, permissionMode: 'default' });
}

/** An assistant chunk holding one tool call (one content block per line, as Claude Code writes them). */
export function toolUseLine(base: LineBase, name: string, input: Record<string, unknown>): string {
  return JSON.stringify({
    ...envelope(base, `tool:${name}:${JSON.stringify(input).length}`),
    type: 'assistant',
    requestId: 'req_test',
    message: {
      model: 'claude-sonnet-4-6',
      id: `msg_${base.time.getTime()}`,
      type: 'message',
      role: 'assistant',
      content: [{ type: 'tool_use', id: `toolu_${base.time.getTime()}`, name, input, caller: { type: 'direct' } }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 10 },
    },
  });
}

export function turnDurationLine(base: LineBase): string {
  return JSON.stringify({
    ...envelope(base, 'turn'),
    type: 'system',
    subtype: 'turn_duration',
    durationMs: 4000,
    messageCount: 4,
    isMeta: false,
  });
}

/** What Claude Code appends after extraction (`verb` absent) or after a dream (`verb: "Improved"`). */
export function memorySavedLine(base: LineBase, writtenPaths: readonly string[], verb?: string): string {
  return JSON.stringify({
    ...envelope(base, `saved:${verb ?? ''}`),
    type: 'system',
    subtype: 'memory_saved',
    writtenPaths,
    ...(verb ? { verb } : {}),
    level: 'info',
    isMeta: false,
  });
}

export async function appendLines(file: string, lines: readonly string[]): Promise<void> {
  await appendFile(file, `${lines.join('\n')}\n`);
}

export async function setMtime(path: string, time: Date): Promise<void> {
  await utimes(path, time, time);
}
