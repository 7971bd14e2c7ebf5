import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { MAX_SANITIZED_LENGTH, sanitizePathPrefix } from '../../../shared/claude/sanitizePath';
import type { JobRecord } from '../../../shared/jobs/jobTypes';
import { EvidenceLedger, type Citation } from '../jobs/evidenceLedger';
import { JobRecordStore } from '../jobs/JobRecordStore';
import { readMemoryBaseline } from '../jobs/memoryBaseline';
import { contentHash } from '../fs/contentHash';
import { toProposal } from '../jobs/proposalDiff';
import { StagingOverlay } from '../jobs/StagingOverlay';

/** Where the demo's parts live in the app data folder: the config root, and the project folders its agents live in. */
export const DEMO_HOME_FOLDER = 'demo-home';
export const DEMO_WORKSPACE_FOLDER = 'demo-workspace';
/** The demo project that lives on disk (project agents and snapshots need a real project folder). */
const WORKSPACE_PROJECT = 'design-system';

interface PendingDreamTemplate {
  readonly id: string;
  readonly project: string;
  readonly label: string;
  readonly createdAt: string;
  readonly finishedAt: string;
  readonly summary: string;
  readonly proposals: readonly { readonly path: string; readonly after: string | null; readonly citations: readonly Citation[] }[];
}

/** What ships beside the sample home: `<source>.mtimes.json` and the `demo-extras/` folder. */
export function demoExtrasOf(demoHomeSource: string): { readonly mtimes: string; readonly extras: string } {
  return { mtimes: `${demoHomeSource}.mtimes.json`, extras: join(dirname(demoHomeSource), 'demo-extras') };
}

/**
 * Git keeps no modification times, yet Claude Code reads memory age and the last dream from them; the
 * demo ships its story's times beside it and they are set on the private copy.
 */
async function applyDemoMtimes(manifestPath: string, target: string): Promise<void> {
  let manifest: Record<string, string>;
  try {
    manifest = JSON.parse(await fs.readFile(manifestPath, 'utf8')) as Record<string, string>;
  } catch {
    return;
  }
  for (const [relativePath, iso] of Object.entries(manifest)) {
    const time = new Date(iso);
    if (relativePath.split('/').includes('..') || Number.isNaN(time.getTime())) continue;
    await fs.utimes(join(target, relativePath), time, time).catch(() => undefined);
  }
}

/** Claude Code's folder name for a project path; a long one is matched by its prefix (see `slugMatchesPath`). */
function demoSlug(projectPath: string): string {
  const sanitized = sanitizePathPrefix(projectPath);
  return sanitized.length <= MAX_SANITIZED_LENGTH ? sanitized : `${sanitized.slice(0, MAX_SANITIZED_LENGTH)}-demo`;
}

/**
 * A symlink that leads out of its folder, to show the finding it causes. Where the system refuses symlinks
 * (Windows without the right), the demo goes without that one finding.
 */
async function symlinkIfAllowed(target: string, path: string, type: 'file' | 'dir'): Promise<void> {
  await fs.symlink(target, path, type).catch(() => undefined);
}

/**
 * The project the demo's agents live in. Its absolute path is only known now, so the parts that name it are made
 * here: the project folder under the demo's config root (a `sessions-index.json` naming the path, as Claude Code
 * 2.1 kept one, since the project has no transcripts) and its auto memory.
 */
async function createWorkspaceProject(extras: string, dataDir: string, home: string): Promise<void> {
  const workspace = join(dataDir, DEMO_WORKSPACE_FOLDER);
  await fs.cp(join(extras, 'workspace'), workspace, { recursive: true });
  const projectPath = join(workspace, WORKSPACE_PROJECT);
  const projectDir = join(home, 'projects', demoSlug(projectPath));
  await fs.mkdir(projectDir, { recursive: true });
  await fs.writeFile(join(projectDir, 'sessions-index.json'), `${JSON.stringify({ version: 1, entries: [{ projectPath }] }, null, 2)}\n`);
  const memoryDir = join(projectDir, 'memory');
  await fs.cp(join(extras, 'memory'), memoryDir, { recursive: true });
  await symlinkIfAllowed(join(workspace, 'GLOSSARY.md'), join(memoryDir, 'shared_glossary.md'), 'file');
  // The ux-writer agent's memory folder is shared with another checkout through a symlink: it leads out of the project.
  await symlinkIfAllowed(join(workspace, 'shared-agent-notes'), join(projectPath, '.claude', 'agent-memory', 'ux-writer'), 'dir');
}

/**
 * The demo's pending dream: proposals written for the demo (no model ran, and its summary says so) staged over the
 * demo's memory as a job's are, so the diffs, base hashes and evidence checks are the ones a real job would have.
 */
async function seedPendingDream(templatePath: string, dataDir: string, home: string): Promise<void> {
  const text = await fs.readFile(templatePath, 'utf8');
  const template = JSON.parse(text) as PendingDreamTemplate;
  const transcriptDir = join(home, 'projects', template.project);
  const memoryDir = join(transcriptDir, 'memory');
  const overlay = new StagingOverlay(await readMemoryBaseline(memoryDir));
  const evidence = new EvidenceLedger({ memoryDir, transcriptDir, linkedTranscriptDirs: {} }, overlay);
  const signal = new AbortController().signal;
  for (const proposal of template.proposals) {
    await evidence.record(proposal.path, proposal.citations, signal);
    if (proposal.after === null) overlay.delete(proposal.path);
    else overlay.write(proposal.path, proposal.after);
  }
  const proposals = overlay.changes().map((change) => ({ ...toProposal(change), evidence: evidence.citationsFor(change.path) }));
  const record: JobRecord = {
    id: template.id,
    kind: 'dream',
    trigger: 'schedule',
    status: 'ready',
    target: {
      target: { kind: 'project', configRoot: home, slug: template.project },
      memoryDir,
      transcriptDir,
      linkedTranscriptDirs: {},
      label: template.label,
    },
    source: null,
    createdAt: template.createdAt,
    finishedAt: template.finishedAt,
    via: 'api',
    model: 'demo (no model ran)',
    // No instructions went to a model: the hash names the demo's own template instead.
    promptHash: contentHash(text),
    usage: { input: 0, output: 0 },
    costUsd: 0,
    turns: 0,
    summary: template.summary,
    error: null,
    stopReason: null,
    proposalCount: proposals.length,
    refusedCount: 0,
    outcome: null,
    proposals,
    refused: [],
  };
  await new JobRecordStore(dataDir).save(record);
}

/**
 * Makes the demo's private copy in the app data folder, once: the sample home with its story's file times, and,
 * when the build ships them, the parts that depend on where the copy lies (a project on disk with agents in
 * every snapshot state, symlinks that lead out) and a dream waiting for review. Returns the copy's config root.
 */
export async function materializeDemo(demoHomeSource: string, dataDir: string): Promise<string> {
  const home = join(dataDir, DEMO_HOME_FOLDER);
  if (await fs.stat(home).catch(() => null)) return home;
  const { mtimes, extras } = demoExtrasOf(demoHomeSource);
  await fs.mkdir(dataDir, { recursive: true });
  await fs.cp(demoHomeSource, home, { recursive: true });
  await applyDemoMtimes(mtimes, home);
  if (await fs.stat(extras).catch(() => null)) {
    await createWorkspaceProject(extras, dataDir, home);
    await seedPendingDream(join(extras, 'pending-dream.json'), dataDir, home);
  }
  return home;
}
