import { HomeService } from '../../electron/core/home/HomeService';
import { runDoctor } from '../../electron/core/memory/runDoctor';
import { serveProbe } from './probeProtocol';

export interface DoctorInput {
  readonly root: string;
  readonly dataDir: string;
  /** The project whose memory folder holds the 1,000 topic files. */
  readonly slug: string;
}

export interface DoctorOutput {
  readonly coldMs: number;
  readonly warmMs: number;
  readonly files: number;
  readonly findings: number;
}

/**
 * `runDoctor` over the big memory folder: once in a new process (cold: every file read), then again with the
 * same process-wide analyzer (warm: what a running app or a second check costs).
 */
serveProbe<DoctorInput, DoctorOutput>(async ({ root, dataDir, slug }) => {
  const home = new HomeService({
    roots: [{ path: root, source: 'CLAUDE_CONFIG_DIR' }],
    dataDir,
    demoHomeSource: null,
    shell: 'cli',
    readOnly: true,
  });
  await home.getHome();
  const coldStarted = performance.now();
  await runDoctor({ home, project: slug });
  const coldMs = performance.now() - coldStarted;
  const warmStarted = performance.now();
  const report = await runDoctor({ home, project: slug });
  const warmMs = performance.now() - warmStarted;
  home.dispose();
  const project = report.projects[0];
  if (!project) throw new Error(`doctor found no project ${slug}`);
  return { coldMs, warmMs, files: project.files.length, findings: project.findings.length };
});
