import type { DoctorAgentJson, DoctorFolderJson, DoctorReport } from '../../../shared/memory/doctorReport';
import { CodedError } from '../../../shared/result';
import { agentBoundary } from '../layout/agentMemoryDiscovery';
import type { HomeService } from '../home/HomeService';
import { MemoryFolderAnalyzer, type FolderAnalysis } from './memoryFolderAnalyzer';
import { listAgentMemories } from '../agents/agentMemoryListing';

export interface DoctorOptions {
  readonly home: HomeService;
  /** Only this project slug (in every config root that has it). */
  readonly project?: string | null;
  /** Also check every agent memory folder. */
  readonly agents?: boolean;
  /** Reuse an analyzer across runs (a long-lived process, the benchmark); its caches make later runs warm. */
  readonly analyzer?: MemoryFolderAnalyzer;
  readonly now?: number;
  readonly staleAfterDays?: number;
}

/** One analyzer per process unless the caller brings its own, so repeated runs only re-stat unchanged files. */
const processAnalyzer = new MemoryFolderAnalyzer();

function folderJson(analysis: FolderAnalysis): DoctorFolderJson {
  const inScan = new Set(analysis.findings.filter((f) => f.code === 'scan.beyond-cap').map((f) => f.file));
  const index = analysis.indexes.find((i) => i.folder === '');
  return {
    memoryDir: analysis.memoryDir,
    index: index
      ? {
          lines: index.loaded.lineCount,
          chars: index.loaded.charCount,
          truncated: index.loaded.wasLineTruncated || index.loaded.wasByteTruncated,
          loadedText: index.loaded.content,
        }
      : { lines: 0, chars: 0, truncated: false, loadedText: '' },
    files: analysis.files.map((file) => ({
      path: file.relativePath,
      type: file.text.type,
      name: file.text.name,
      description: file.text.description,
      mtime: new Date(file.mtimeMs).toISOString(),
      bytes: file.bytes,
      inScan: !inScan.has(file.relativePath),
      findings: [...new Set(analysis.findings.filter((f) => f.file === file.relativePath).map((f) => f.code))],
    })),
    findings: analysis.findings.map(({ code, severity, file, line, message }) => ({ code, severity, file, line, message })),
  };
}

/**
 * `ccmem doctor` as a function: checks every project's memory folder (team memory included) and, when asked,
 * every agent memory folder, and returns the report `--json` prints. Reads only; never writes anything.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const analyzer = options.analyzer ?? processAnalyzer;
  const snapshot = await options.home.getHome();
  const selected = options.project
    ? snapshot.projects.filter((p) => p.slug === options.project)
    : // A memory folder shared by a repository's sub-folders is checked once, under the project that owns it.
      snapshot.projects.filter((p) => p.memoryDirExists && p.memoryOwner === null);
  if (options.project && selected.length === 0) throw new CodedError('NOT_FOUND', `No project with the slug ${options.project}`);
  const common = { now: options.now ?? Date.now(), staleAfterDays: options.staleAfterDays };
  const projects = [];
  for (const project of selected) {
    const analysis = await analyzer.analyze({ memoryDir: project.memoryDir, kind: 'project', projectPath: project.path, ...common });
    projects.push({ slug: project.slug, path: project.path, ...folderJson(analysis) });
  }
  if (!options.agents) return { projects };
  const agents: DoctorAgentJson[] = [];
  for (const agent of await listAgentMemories(options.home)) {
    const analysis = await analyzer.analyze({
      memoryDir: agent.dir,
      kind: 'agent',
      projectPath: agent.projectPath,
      boundary: agentBoundary(agent),
      ...common,
    });
    if (!analysis.exists) continue;
    agents.push({ agentType: agent.agentType, scope: agent.scope, ...folderJson(analysis) });
  }
  return { projects, agents };
}
