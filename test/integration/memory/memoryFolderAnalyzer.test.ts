import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryFolderAnalyzer } from '../../../electron/core/memory/memoryFolderAnalyzer';
import { createScenarioHome, topicFile, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { snapshotTree } from '../../fixtures/treeSnapshot';

declare global {
  var __ccmemAnalyzerCanary: unknown;
}

const GITHUB_TOKEN = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`;
let home: ScenarioHome;
let project: ProjectBuilder;
let holder: ChildProcess;
const analyzer = new MemoryFolderAnalyzer();

beforeAll(async () => {
  home = await createScenarioHome({ prefix: 'ccmem-analyzer-' });
  project = home.project(home.workPath('shop'));
  await mkdir(join(project.cwd, 'src'), { recursive: true });
  await writeFile(join(project.cwd, 'src', 'present.ts'), 'export {};\n');
  holder = spawn('sleep', ['60'], { stdio: 'ignore' });
});

afterAll(async () => {
  holder.kill();
  await home.cleanup();
});

describe('findings that need the real file system', () => {
  it('secret.detected: a token found by the maintained rule set, raised in team memory, never echoed', async () => {
    await project.memory(
      'leaky.md',
      topicFile({ variant: 'flat', name: 'n', description: 'd', type: 'reference', body: `Use token ${GITHUB_TOKEN} for CI.\n` }),
    );
    await project.memory(
      'team/leaky.md',
      topicFile({ variant: 'flat', name: 'n', description: 'd', type: 'reference', body: `Token: ${GITHUB_TOKEN}\n` }),
    );
    await project.memory(
      'clean.md',
      topicFile({ variant: 'flat', name: 'n', description: 'd', type: 'reference', body: 'The CI token lives in the vault.\n' }),
    );
    const analysis = await analyzer.analyze({ memoryDir: project.memoryDir, kind: 'project', projectPath: project.cwd });
    const secrets = analysis.findings.filter((f) => f.code === 'secret.detected');
    expect(secrets.map((f) => [f.file, f.severity, f.line])).toEqual([
      ['leaky.md', 'warn', 6],
      ['team/leaky.md', 'error', 6],
    ]);
    expect(JSON.stringify(analysis.findings)).not.toContain(GITHUB_TOKEN.slice(4, 20));
  });

  it('stale.missing-path: a cited file that is gone from the project, not one that exists', async () => {
    await project.memory(
      'paths.md',
      topicFile({
        variant: 'flat',
        name: 'n',
        description: 'd',
        type: 'project',
        body: 'See `src/present.ts:3`.\nThe fix is in src/gone/handler.ts:42.\n',
      }),
    );
    const findings = (await analyzer.analyze({ memoryDir: project.memoryDir, kind: 'project', projectPath: project.cwd })).findings.filter(
      (f) => f.file === 'paths.md' && f.code === 'stale.missing-path',
    );
    expect(findings.map((f) => [f.line, f.message])).toEqual([[7, 'Cites src/gone/handler.ts:42, which no longer exists in the project']]);
    const noProject = await analyzer.analyze({ memoryDir: project.memoryDir, kind: 'project', projectPath: null });
    expect(noProject.findings.some((f) => f.code === 'stale.missing-path')).toBe(false);
  });

  it('symlink.outside: a topic file linking out is reported and not read; one linking inside is read', async () => {
    const outside = home.workPath('elsewhere.md');
    await writeFile(outside, topicFile({ variant: 'flat', name: 'outside', description: 'd', type: 'user' }));
    await symlink(outside, join(project.memoryDir, 'out.md'));
    await symlink(join(project.memoryDir, 'clean.md'), join(project.memoryDir, 'alias.md'));
    const analysis = await analyzer.analyze({ memoryDir: project.memoryDir, kind: 'project', projectPath: project.cwd });
    expect(analysis.findings.filter((f) => f.file === 'out.md').map((f) => f.code)).toEqual(['symlink.outside']);
    expect(analysis.files.find((f) => f.relativePath === 'out.md')?.text.readable).toBe(false);
    expect(analysis.files.find((f) => f.relativePath === 'alias.md')?.text.name).toBe('n');
  });

  it('symlink.outside for the folder itself', async () => {
    const real = home.workPath('real-memory');
    await mkdir(real);
    await writeFile(join(real, 'a.md'), topicFile({ variant: 'flat', name: 'a', description: 'd', type: 'user' }));
    const linked = home.project(home.workPath('linked'));
    await symlink(real, linked.memoryDir);
    const analysis = await analyzer.analyze({ memoryDir: linked.memoryDir, kind: 'project', projectPath: null });
    expect(analysis.findings.find((f) => f.file === null)?.code).toBe('symlink.outside');
    expect(analysis.files.map((f) => f.relativePath)).toEqual(['a.md']);
  });

  it('lock.held: only while a live process holds a lock younger than an hour', async () => {
    const locked = home.project(home.workPath('locked'));
    await locked.memory('a.md', topicFile({ variant: 'flat', name: 'a', description: 'd', type: 'user' }));
    await locked.lock({ pid: holder.pid as number, mtime: new Date() });
    const live = await analyzer.analyze({ memoryDir: locked.memoryDir, kind: 'project', projectPath: null });
    expect(live.findings.filter((f) => f.code === 'lock.held').map((f) => f.message)).toEqual([
      `A dream is consolidating this memory right now (process ${holder.pid}); edits are refused until it ends`,
    ]);
    await locked.lock({ pid: holder.pid as number, mtime: new Date(Date.now() - 2 * 3600_000) });
    const stale = await analyzer.analyze({ memoryDir: locked.memoryDir, kind: 'project', projectPath: null });
    expect(stale.findings.some((f) => f.code === 'lock.held')).toBe(false);
  });
});

describe('bad input: a finding or a clear warning, nothing hangs, nothing run, nothing written', () => {
  const deep = `---\nname: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n---\n`;
  const bomb = `---\na: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n---\nBody\n`;
  const cases: [string, string | Uint8Array, string | null][] = [
    ['bomb.md', bomb, 'frontmatter.invalid-yaml'],
    ['deep.md', deep, 'frontmatter.invalid-yaml'],
    ['huge.md', `---\nname: x\ndescription: ${'y'.repeat(5 * 1024 * 1024)}\n---\nBody\n`, 'frontmatter.invalid-yaml'],
    ['dupes.md', '---\nname: a\nname: b\ndescription: d\ntype: user\n---\n', null],
    ['proto.md', '---\n__proto__: {polluted: true}\nname: p\ndescription: d\ntype: user\n---\n', null],
    ['exec.md', '---js\nglobalThis.__ccmemAnalyzerCanary = 1; ({name: "x"})\n---\nBody\n', 'frontmatter.executable'],
    ['plain.md', 'No frontmatter at all.\n', 'frontmatter.missing'],
    ['binary.md', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]), null],
  ];

  it.each(cases)('%s', async (name, content, code) => {
    const bad = home.project(home.workPath(`bad-${name}`));
    await bad.memory(name, content);
    await bad.memoryIndex(`- [x](${name})\n`);
    const before = await snapshotTree(home.root);
    const started = performance.now();
    const analysis = await new MemoryFolderAnalyzer().analyze({ memoryDir: bad.memoryDir, kind: 'project', projectPath: null });
    // A guard against hangs, not a speed figure (those come from bench/): it passes with a wide margin on a loaded machine.
    expect(performance.now() - started).toBeLessThan(1000);
    const codes = analysis.findings.filter((f) => f.file === name).map((f) => f.code);
    if (code) expect(codes).toContain(code);
    if (name === 'binary.md') expect(analysis.warnings.map((w) => w.code)).toContain('binary-file');
    if (name === 'dupes.md') expect(analysis.files[0].text.name).toBe('b');
    expect(globalThis.__ccmemAnalyzerCanary).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await snapshotTree(home.root)).toEqual(before);
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable file is a warning, not a crash', async () => {
    const locked = home.project(home.workPath('unreadable'));
    const path = await locked.memory('secret.md', 'x');
    await chmod(path, 0o000);
    const analysis = await new MemoryFolderAnalyzer().analyze({ memoryDir: locked.memoryDir, kind: 'project', projectPath: null });
    expect(analysis.warnings.map((w) => w.code)).toContain('unreadable');
    await chmod(path, 0o644);
  });
});
