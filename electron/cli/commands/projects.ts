import { parseArgs } from 'node:util';
import type { PathSource, ProjectSummary } from '../../../shared/model/home';
import { createCliEngine } from '../cliEngine';
import type { CliIo } from '../cliIo';
import { formatTable } from '../textTable';

/** One element of `ccmem projects --json`; a stable schema scripts rely on. */
export interface ProjectJson {
  readonly slug: string;
  readonly configRoot: string;
  readonly path: string | null;
  readonly pathSource: PathSource;
  readonly sessionCount: number;
  readonly memoryDir: string | null;
  readonly memoryFileCount: number;
  /** The project (folder name) whose memory folder this one uses (its repository's root), or null for its own. */
  readonly memoryOwner: string | null;
  /** Projects (folder names) whose sessions use this project's memory folder (sub-folders of its repository). */
  readonly memorySharedWith: readonly string[];
  readonly lastActivity: string | null;
}

export function toProjectJson(project: ProjectSummary): ProjectJson {
  return {
    slug: project.slug,
    configRoot: project.configRoot,
    path: project.path,
    pathSource: project.pathSource,
    sessionCount: project.sessionCount,
    memoryDir: project.memoryDirExists ? project.memoryDir : null,
    memoryFileCount: project.memoryFileCount,
    memoryOwner: project.memoryOwner,
    memorySharedWith: project.memorySharedWith,
    lastActivity: project.lastActivity,
  };
}

/** `ccmem projects [--json]`: every project in every config root. Reads only. */
export async function runProjects(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: [...argv], options: { json: { type: 'boolean', default: false } }, strict: true });
  const engine = await createCliEngine(io, { readOnly: true });
  const snapshot = await engine.home.getHome();
  await engine.dispose();
  if (values.json) {
    io.stdout(`${JSON.stringify(snapshot.projects.map(toProjectJson), null, 2)}\n`);
  } else if (snapshot.projects.length === 0) {
    io.stdout(`No projects found in ${snapshot.roots.map((r) => r.path).join(', ')}\n`);
  } else {
    const rows = [
      ['PROJECT', 'SESSIONS', 'MEMORIES', 'LAST ACTIVITY'],
      ...snapshot.projects.map((p) => [
        p.displayName + (p.path ? '' : ' (path unknown)'),
        String(p.sessionCount),
        String(p.memoryFileCount),
        p.lastActivity ?? '-',
      ]),
    ];
    io.stdout(`${formatTable(rows)}\n`);
  }
  for (const root of snapshot.roots) {
    if (!root.exists) io.stderr(`warning: ${root.path} does not exist\n`);
  }
  for (const item of [...snapshot.warnings, ...snapshot.projects.flatMap((p) => p.warnings)]) {
    io.stderr(`warning: ${item.path ?? ''}: ${item.message}\n`);
  }
  return 0;
}
