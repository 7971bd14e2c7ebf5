import type { TranscriptPlace } from '../../../../shared/history/historyModel';
import type { BackupRecord, CallRecord, EvidenceRecord, ResultRecord, SavedRecord } from './memoryEvidence';
import type { MemoryPathResolver } from './memoryPathResolver';
import { applyEdits, applyHunks } from './textEdits';
import type { Observation, ShellRemoval, StepOrigin } from './versionChains';

/** The observations of every memory file the evidence names, by folder and path, oldest first. */
export interface FileObservations {
  readonly memoryDir: string;
  readonly path: string;
  readonly observations: Observation[];
}

export interface ObservationIndex {
  readonly files: Map<string, FileObservations>;
  readonly removals: ShellRemoval[];
}

export function fileKey(memoryDir: string, path: string): string {
  return `${memoryDir}\0${path}`;
}

function placeOf(record: EvidenceRecord): TranscriptPlace {
  const { source } = record;
  return {
    configRoot: source.configRoot,
    slug: source.slug,
    sessionId: source.sessionId,
    line: source.agentId === null ? record.line : null,
    uuid: record.uuid,
    agentId: source.agentId,
  };
}

function sessionOrigin(call: CallRecord): StepOrigin {
  const { sessionId, agentId } = call.source;
  return {
    cause: 'session',
    sessionId,
    turnUuid: call.turnUuid,
    evidence: { kind: 'session', tool: call.tool, place: placeOf(call), turnUuid: call.turnUuid, contentMatched: true },
    groupKey: `session:${sessionId}:${call.turnUuid ?? call.uuid ?? call.id}`,
    summary: `${call.tool} in ${agentId ? `a sub-agent of session` : 'session'} ${sessionId.slice(0, 8)}`,
  };
}

function savedOrigin(saved: SavedRecord): StepOrigin {
  const { sessionId } = saved.source;
  const key = saved.uuid ?? saved.id;
  if (saved.verb === 'Improved')
    return {
      cause: 'dream',
      sessionId,
      turnUuid: saved.turnUuid,
      evidence: { kind: 'dream', lockTakenAt: null, previousConsolidationAt: null, holderPid: null, improved: placeOf(saved) },
      groupKey: `dream:${key}`,
      summary: 'Dream (memory consolidation)',
    };
  return {
    cause: 'extraction',
    sessionId,
    turnUuid: saved.turnUuid,
    evidence: { kind: 'extraction', reason: 'memory-saved', place: placeOf(saved) },
    groupKey: `extraction:${key}`,
    summary: `Memory extraction after a turn of session ${sessionId.slice(0, 8)}`,
  };
}

export interface ObservationContext {
  readonly resolver: MemoryPathResolver;
  /** The auto-memory folder of the project a transcript belongs to: where relative `writtenPaths` point. */
  readonly projectMemoryDir: (configRoot: string, slug: string) => string | null;
}

/**
 * Turns the evidence records into observations of files: calls are paired with their results (failed or
 * unanswered calls changed nothing), Writes take the bytes Claude Code reports having written, Edits the
 * bytes their recorded patch gives, `originalFile` and backups become known states. A call copied into a
 * forked session (same tool_use id) or a `memory_saved` line copied with it counts once.
 */
export function observationsFrom(records: readonly EvidenceRecord[], context: ObservationContext): ObservationIndex {
  const calls = new Map<string, CallRecord>();
  const results = new Map<string, ResultRecord>();
  const saved = new Map<string, SavedRecord>();
  const backups: BackupRecord[] = [];
  const byTime = [...records].sort((a, b) => a.timeMs - b.timeMs || a.line - b.line);
  for (const record of byTime) {
    if (record.kind === 'call' && !calls.has(record.toolUseId)) calls.set(record.toolUseId, record);
    else if (record.kind === 'result' && !results.has(record.toolUseId)) results.set(record.toolUseId, record);
    else if (record.kind === 'saved') {
      const key = record.uuid ?? `${record.timeMs}:${record.writtenPaths.join('\0')}`;
      if (!saved.has(key)) saved.set(key, record);
    } else if (record.kind === 'backup' && !record.unreadable) backups.push(record);
  }

  const files = new Map<string, FileObservations>();
  const removals: ShellRemoval[] = [];
  const add = (memoryDir: string, path: string, observation: Observation): void => {
    const key = fileKey(memoryDir, path);
    let file = files.get(key);
    if (!file) {
      file = { memoryDir, path, observations: [] };
      files.set(key, file);
    }
    file.observations.push(observation);
  };

  for (const call of calls.values()) {
    const result = results.get(call.toolUseId);
    if (!result?.ok) continue;
    if (call.command !== null) {
      removals.push({ timeMs: result.timeMs, command: call.command.replace(/\\/g, '/'), origin: sessionOrigin(call) });
      continue;
    }
    const target = context.resolver.resolve(call.filePath, call.cwd, call.source.configRoot);
    if (!target) continue;
    const origin = sessionOrigin(call);
    if (result.original !== null) add(target.memoryDir, target.path, { kind: 'state', timeMs: call.timeMs, text: result.original });
    if (call.tool === 'Write') {
      const text = result.content ?? call.content;
      if (text === null) continue;
      const created = result.writeType === 'create' ? true : result.writeType === 'update' ? false : null;
      add(target.memoryDir, target.path, { kind: 'write', timeMs: result.timeMs, text, created, origin });
    } else if (call.edits) {
      let after: string | null = null;
      if (result.original !== null) {
        const patched = result.hunks ? applyHunks(result.original, result.hunks) : applyEdits(result.original, call.edits);
        after = patched.ok ? patched.text : null;
      }
      add(target.memoryDir, target.path, { kind: 'edit', timeMs: result.timeMs, edits: call.edits, after, origin });
    }
  }

  for (const record of saved.values()) {
    const origin = savedOrigin(record);
    for (const written of record.writtenPaths) {
      let target = context.resolver.resolve(written, null, record.source.configRoot);
      if (!target && !/^([A-Za-z]:)?[\\/]/.test(written)) {
        const own = context.projectMemoryDir(record.source.configRoot, record.source.slug);
        target = own ? context.resolver.resolve(written, own, record.source.configRoot) : null;
      }
      if (target)
        add(target.memoryDir, target.path, { kind: 'saved', timeMs: record.timeMs, mayDelete: record.verb === 'Improved', origin });
    }
  }

  for (const backup of backups) {
    const target = context.resolver.resolve(backup.filePath, backup.cwd, backup.source.configRoot);
    if (target) add(target.memoryDir, target.path, { kind: 'state', timeMs: backup.timeMs, text: backup.text });
  }

  // States sort before changes at the same moment: a backup is taken before the edit it protects.
  const rank = (o: Observation): number => (o.kind === 'state' ? 0 : 1);
  for (const file of files.values()) file.observations.sort((a, b) => a.timeMs - b.timeMs || rank(a) - rank(b));
  removals.sort((a, b) => a.timeMs - b.timeMs);
  return { files, removals };
}
