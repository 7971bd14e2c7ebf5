import { promises as fs } from 'node:fs';
import { basename, join } from 'node:path';
import { agentTypeToFolderName } from '../../../shared/claude/sessionFiles';
import { compareSnapshotSides, localMemoryFiles } from '../../../shared/agents/snapshotComparison';
import { planSnapshotAction } from '../../../shared/agents/snapshotPlanner';
import { parseSnapshotMeta, parseSyncedMeta, SNAPSHOT_META_FILE, SYNCED_META_FILE } from '../../../shared/agents/snapshotStatus';
import type {
  AgentMemorySummary,
  AgentRef,
  AgentSnapshotDiff,
  SnapshotActionResult,
  SnapshotCommand,
  SnapshotOperation,
  SnapshotPlan,
  SnapshotSecret,
  SnapshotSide,
} from '../../../shared/model/agents';
import { CodedError } from '../../../shared/result';
import { ABSENT, contentHash } from '../fs/contentHash';
import { SafeWriter } from '../fs/safeWriter';
import type { HistoryStore, NewHistoryEntry } from '../history/HistoryStore';
import { SecretScanner } from '../memory/secretScan';
import { snapshotDirFor } from './agentMemoryDiscovery';
import { readMetaFile, readSnapshotFolder, type SnapshotFolderContents } from './snapshotFolderReader';

export interface AgentSnapshotServiceDeps {
  /** Every agent memory the engine knows right now (freshly discovered). */
  readonly listAgents: () => Promise<readonly AgentMemorySummary[]>;
  readonly history: HistoryStore;
  /** Told just before each of our own writes lands, so the watcher does not report it as foreign. */
  readonly onOwnWrite?: (absolutePath: string) => void;
  readonly now?: () => Date;
}

/**
 * A snapshot carries every regular file of its folder (Claude Code copies them all) plus two JSON markers, so its
 * writer accepts any single file name; the safe writer still refuses the lock file, symlinks and escapes.
 */
function isTopLevelName(relativePath: string): boolean {
  return !/[\\/]/.test(relativePath);
}

export interface SnapshotActionRequest {
  readonly ref: AgentRef;
  readonly command: SnapshotCommand;
  /** `merge`: the files to take from the snapshot. */
  readonly files?: readonly string[];
  /**
   * `create` for an agent without a snapshot yet: its real type, when the memory folder's name lost a plugin
   * agent's ':' (`plugin:agent` lives in `plugin-agent`); the snapshot folder must carry the real type.
   */
  readonly agentType?: string;
}

type ProjectAgent = AgentMemorySummary & { readonly projectPath: string };

interface Sides {
  readonly agent: ProjectAgent;
  readonly snapshotDir: string;
  readonly local: SnapshotFolderContents;
  readonly snapshot: SnapshotFolderContents;
  readonly token: string;
}

const SUMMARIES: Readonly<Record<SnapshotCommand, string>> = {
  create: 'Snapshot created from local agent memory',
  initialize: 'Agent memory initialised from the snapshot',
  replace: 'Agent memory replaced from the snapshot',
  'mark-synced': 'Agent memory marked as synced with the snapshot',
  merge: 'Files merged from the snapshot into agent memory',
};

/** A write the plan makes, with the bytes it writes and the version it replaces (both kept in history). */
interface PreparedStep {
  readonly operation: SnapshotOperation;
  readonly root: string;
  readonly bytes: Buffer | null;
  readonly before: string | null;
}

/**
 * Snapshots of project agents' memory (claude-code-state.md §7.6): compares a committed snapshot with the
 * agent's memory, plans each action as Claude Code would run it, and applies the plan through the safe writer,
 * storing every version it overwrites or deletes in history first.
 */
export class AgentSnapshotService {
  private readonly now: () => Date;
  private readonly writer: SafeWriter;
  private readonly secrets = new SecretScanner();

  constructor(private readonly deps: AgentSnapshotServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    this.writer = new SafeWriter({ onOwnWrite: deps.onOwnWrite, alsoWrites: isTopLevelName });
  }

  async diff(ref: AgentRef): Promise<AgentSnapshotDiff> {
    const sides = await this.readSides(await this.requireProjectAgent(ref), null);
    const entries = compareSnapshotSides(sides.local.listing, sides.snapshot.listing).map((file) => ({
      name: file.name,
      state: file.state,
      local: sides.local.facts.get(file.name) ?? null,
      snapshot: sides.snapshot.facts.get(file.name) ?? null,
    }));
    return { agent: sides.agent, entries, token: sides.token, warnings: [...sides.local.warnings, ...sides.snapshot.warnings] };
  }

  /** What the action would do; writes nothing. A refused action comes back with its refusal, not as an error. */
  async plan(request: SnapshotActionRequest): Promise<SnapshotPlan> {
    const sides = await this.readSides(await this.requireProjectAgent(request.ref), request.agentType ?? null);
    return this.planFor(sides, request);
  }

  /** Runs the action; `expectedToken` (from `diff`) refuses it when either side changed since the user looked. */
  async apply(request: SnapshotActionRequest, expectedToken?: string): Promise<SnapshotActionResult> {
    const sides = await this.readSides(await this.requireProjectAgent(request.ref), request.agentType ?? null);
    if (expectedToken !== undefined && expectedToken !== sides.token)
      throw new CodedError('CONFLICT', 'The snapshot or the local memory changed on disk since they were compared; look again');
    const plan = await this.planFor(sides, request);
    if (plan.refusal)
      throw new CodedError(plan.refusal.code, plan.refusal.message, plan.refusal.secrets ? { secrets: plan.refusal.secrets } : undefined);
    const steps = await Promise.all(plan.operations.map((operation) => this.prepare(operation, sides)));
    await this.run(steps, SUMMARIES[request.command]);
    const after = (await this.deps.listAgents()).find((agent) => agent.dir === sides.agent.dir);
    return { plan, agent: after ?? sides.agent };
  }

  private async requireProjectAgent(ref: AgentRef): Promise<ProjectAgent> {
    const agent = (await this.deps.listAgents()).find((candidate) => candidate.dir === ref.dir);
    if (!agent) throw new CodedError('NOT_FOUND', `No known agent memory at ${ref.dir}`);
    const { projectPath } = agent;
    if (projectPath === null)
      throw new CodedError('INVALID_INPUT', 'User-scope agent memory belongs to no project, so it has no project snapshot');
    return { ...agent, projectPath };
  }

  private async readSides(agent: ProjectAgent, agentType: string | null): Promise<Sides> {
    let snapshotDir = agent.snapshot.dir ?? snapshotDirFor(agent.projectPath, agent.agentType);
    if (agentType !== null && agentType !== agent.agentType) {
      if (agent.snapshot.dir !== null || agentTypeToFolderName(agentType) !== basename(agent.dir))
        throw new CodedError('INVALID_INPUT', `${agentType} is not the type of the agent whose memory is in ${agent.dir}`);
      snapshotDir = snapshotDirFor(agent.projectPath, agentType);
    }
    const [local, snapshot] = await Promise.all([readSnapshotFolder(agent.dir), readSnapshotFolder(snapshotDir)]);
    const token = contentHash(
      JSON.stringify([local.exists, local.listing, [...local.metaHashes], snapshot.exists, snapshot.listing, [...snapshot.metaHashes]]),
    );
    return { agent, snapshotDir, local, snapshot, token };
  }

  private async planFor(sides: Sides, request: SnapshotActionRequest): Promise<SnapshotPlan> {
    return planSnapshotAction({
      command: request.command,
      agentDir: sides.agent.dir,
      snapshotDir: sides.snapshotDir,
      snapshotFolderExists: sides.snapshot.exists,
      unusableFolder: [sides.local, sides.snapshot].find((side) => !side.plain)?.dir ?? null,
      local: sides.local.listing,
      snapshot: sides.snapshot.listing,
      snapshotMeta: await readMetaFile(sides.snapshot, SNAPSHOT_META_FILE, parseSnapshotMeta),
      syncedMeta: await readMetaFile(sides.local, SYNCED_META_FILE, parseSyncedMeta),
      now: this.now().toISOString(),
      secrets: request.command === 'create' ? await this.secretsIn(sides.local) : [],
      files: request.files,
    });
  }

  private async secretsIn(local: SnapshotFolderContents): Promise<SnapshotSecret[]> {
    const found: SnapshotSecret[] = [];
    for (const file of localMemoryFiles(local.listing)) {
      const bytes = await this.readExact(local.dir, file.name, file.hash);
      for (const hit of await this.secrets.scan(file.hash, bytes.toString('utf8')))
        found.push({ name: file.name, line: hit.line, kind: hit.kind });
    }
    return found;
  }

  /** Reads a file and checks it still is the version the plan was made from. */
  private async readExact(dir: string, name: string, hash: string): Promise<Buffer> {
    const bytes = await fs.readFile(join(dir, name)).catch(() => null);
    if (!bytes || contentHash(bytes) !== hash)
      throw new CodedError('CONFLICT', `${join(dir, name)} changed on disk; nothing more was changed`);
    return bytes;
  }

  private async prepare(operation: SnapshotOperation, sides: Sides): Promise<PreparedStep> {
    const dirOf = (side: SnapshotSide) => (side === 'local' ? sides.agent.dir : sides.snapshotDir);
    switch (operation.kind) {
      case 'copy': {
        const root = dirOf(operation.to);
        const bytes = await this.readExact(dirOf(operation.to === 'local' ? 'snapshot' : 'local'), operation.name, operation.hash);
        if (operation.replaces !== null) await this.deps.history.putBlob(await this.readExact(root, operation.name, operation.replaces));
        await this.deps.history.putBlob(bytes);
        return { operation, root, bytes, before: operation.replaces };
      }
      case 'delete': {
        const root = dirOf(operation.from);
        await this.deps.history.putBlob(await this.readExact(root, operation.name, operation.hash));
        return { operation, root, bytes: null, before: operation.hash };
      }
      case 'write-meta':
        return { operation, root: dirOf(operation.to), bytes: Buffer.from(operation.text, 'utf8'), before: operation.replaces };
    }
  }

  /**
   * Writes in plan order (a new snapshot.json only after the files it describes) and journals every file
   * change as one change set, also when a later write fails, so history always matches the disk.
   */
  private async run(steps: readonly PreparedStep[], summary: string): Promise<void> {
    const changeSetId = this.deps.history.newChangeSetId();
    const entries: NewHistoryEntry[] = [];
    try {
      for (const { operation, root, bytes, before } of steps) {
        if (bytes === null) await this.writer.remove(root, operation.name, before ?? ABSENT);
        else await this.writer.write(root, operation.name, bytes, before ?? ABSENT);
        // The markers are bookkeeping, not memory: history keeps the files.
        if (operation.kind === 'write-meta') continue;
        entries.push({
          folder: root,
          path: operation.name,
          before,
          after: bytes === null ? null : contentHash(bytes),
          size: bytes === null ? null : bytes.length,
          cause: 'app-edit',
          changeSetId,
          summary,
        });
      }
    } finally {
      if (entries.length > 0) await this.deps.history.append(entries);
    }
  }
}
