import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateHome, type GeneratedHome } from '../../../bench/generator/generateHome';
import { runGenerateCommand } from '../../../bench/generator/generateCommand';
import { snapshotTree } from '../../fixtures/treeSnapshot';

const manifestSchema = z.strictObject({
  root: z.string(),
  size: z.literal('small'),
  seed: z.literal(7),
  seconds: z.number().positive(),
  mbPerSecond: z.number().positive(),
  bytes: z.strictObject({ total: z.number(), sessions: z.number(), subagents: z.number(), sidecars: z.number(), memory: z.number() }),
  counts: z.strictObject({
    projects: z.number().int(),
    sessions: z.number().int(),
    subagentFiles: z.number().int(),
    sidecarFiles: z.number().int(),
    memoryFiles: z.number().int(),
    compactions: z.number().int(),
  }),
  largestTranscript: z.strictObject({ path: z.string(), slug: z.string(), sessionId: z.uuid(), bytes: z.number().int() }),
  appendTarget: z.strictObject({ path: z.string(), slug: z.string(), sessionId: z.uuid(), cwd: z.string() }),
  doctorProject: z.strictObject({ slug: z.string(), memoryDir: z.string(), topicFiles: z.number().int() }),
  searchNeedle: z.strictObject({ text: z.string(), transcriptOccurrences: z.number().int(), memoryFiles: z.number().int() }),
});

function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((name) => statSync(join(dir, name)).isFile()).sort();
}

/** A file's hash with the config root's own path taken out (transcripts name memory and spill files absolutely). */
function hashWithoutRoot(path: string, root: string): string {
  return createHash('sha1').update(readFileSync(path, 'utf8').replaceAll(root, '<root>')).digest('hex');
}

describe('the synthetic home generator (small)', () => {
  let tmp: string;
  let viaCli: GeneratedHome;
  let direct: GeneratedHome;
  let transcripts: { path: string; lines: Record<string, unknown>[]; text: string; partialTail: boolean }[];

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'ccmem-bench-gen-'));
    let stdout = '';
    const code = await runGenerateCommand(
      ['--size', 'small', '--seed', '7', '--out', join(tmp, 'a'), '--json'],
      { stdout: (text) => (stdout += text), stderr: () => undefined },
      'npm run bench -- gen',
    );
    expect(code).toBe(0);
    viaCli = manifestSchema.parse(JSON.parse(stdout)) as GeneratedHome;
    direct = await generateHome({ size: 'small', seed: 7, out: join(tmp, 'b') });
    transcripts = filesUnder(join(viaCli.root, 'projects'))
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => {
        const path = join(viaCli.root, 'projects', name);
        const text = readFileSync(path, 'utf8');
        const parts = text.split('\n');
        const tail = parts.pop() ?? '';
        return { path, text, lines: parts.map((line) => JSON.parse(line) as Record<string, unknown>), partialTail: tail !== '' };
      });
  }, 120_000);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('writes the same bytes for the same seed, whichever way it is started', () => {
    const a = filesUnder(viaCli.root);
    expect(a).toEqual(filesUnder(direct.root));
    for (const name of a)
      expect(hashWithoutRoot(join(viaCli.root, name), viaCli.root), name).toBe(hashWithoutRoot(join(direct.root, name), direct.root));
    expect({ ...viaCli, root: '', seconds: 0, mbPerSecond: 0 }).toEqual(
      JSON.parse(JSON.stringify({ ...direct, root: '', seconds: 0, mbPerSecond: 0 }).replaceAll(direct.root, viaCli.root)),
    );
  });

  it('writes about 50 MB of valid JSONL, with half-written last lines only where a session is still being written', () => {
    expect(viaCli.bytes.total).toBeGreaterThan(40e6);
    expect(viaCli.bytes.total).toBeLessThan(60e6);
    expect(viaCli.counts.sessions).toBe(120);
    const partial = transcripts.filter((t) => t.partialTail);
    expect(partial.length).toBeGreaterThanOrEqual(1);
    for (const t of partial) expect(relative(viaCli.root, t.path)).toMatch(/^projects\/[^/]+\/[0-9a-f-]{36}\.jsonl$/);
  });

  it('mixes every Claude Code era and its sub-agent layout', () => {
    const versions = new Set(transcripts.flatMap((t) => t.lines.map((line) => line.version)).filter(Boolean));
    expect([...versions].sort()).toEqual(['1.0.98', '2.0.64', '2.1.128', '2.1.37']);
    const names = transcripts.map((t) => relative(join(viaCli.root, 'projects'), t.path));
    expect(names.some((name) => /^[^/]+\/agent-[0-9a-f]{8}\.jsonl$/.test(name))).toBe(true);
    expect(names.some((name) => /^[^/]+\/[0-9a-f-]{36}\/subagents\/agent-a[0-9a-f]{6}\.jsonl$/.test(name))).toBe(true);
    expect(names.some((name) => /^[^/]+\/[0-9a-f-]{36}\/subagents\/agent-a[0-9a-f]{16}\.jsonl$/.test(name))).toBe(true);
    const metas = filesUnder(join(viaCli.root, 'projects')).filter((name) => name.endsWith('.meta.json'));
    expect(metas.length).toBeGreaterThan(0);
    for (const meta of metas) expect(JSON.parse(readFileSync(join(viaCli.root, 'projects', meta), 'utf8'))).toHaveProperty('agentType');
    const inline = transcripts.filter(
      (t) => /\/[0-9a-f-]{36}\.jsonl$/.test(t.path) && t.lines.some((l) => l.isSidechain === true && l.version === '1.0.98'),
    );
    expect(inline.length).toBeGreaterThan(0);
  });

  it('splits assistant responses into chunks sharing message.id, compacts, and mirrors 2.1.3x sub-agents as progress lines', () => {
    const ids = new Map<string, number>();
    for (const t of transcripts) {
      for (const line of t.lines) {
        const id = (line.message as { id?: string } | undefined)?.id;
        if (line.type === 'assistant' && id) ids.set(id, (ids.get(id) ?? 0) + 1);
      }
    }
    expect([...ids.values()].some((count) => count >= 2)).toBe(true);
    const all = transcripts.flatMap((t) => t.lines);
    const boundaries = all.filter((l) => l.subtype === 'compact_boundary');
    expect(boundaries.length).toBe(viaCli.counts.compactions);
    expect(boundaries.every((b) => b.parentUuid === null && typeof b.logicalParentUuid === 'string')).toBe(true);
    expect(all.filter((l) => l.isCompactSummary === true).length).toBe(viaCli.counts.compactions);
    expect(all.some((l) => l.type === 'progress' && (l.data as { type?: string }).type === 'agent_progress')).toBe(true);
    expect(all.some((l) => (l.message as { model?: string } | undefined)?.model === '<synthetic>' && l.isApiErrorMessage === true)).toBe(
      true,
    );
  });

  it('dates each spilled tool output within its session, as Claude Code writes it, not when the generator ran', () => {
    const spills = filesUnder(join(viaCli.root, 'projects')).filter((name) => name.includes('/tool-results/'));
    expect(spills.length).toBeGreaterThan(0);
    for (const name of spills) {
      const [slug, sessionId] = name.split('/');
      const session = statSync(join(viaCli.root, 'projects', slug, `${sessionId}.jsonl`));
      expect(statSync(join(viaCli.root, 'projects', name)).mtimeMs, name).toBeLessThanOrEqual(session.mtimeMs);
    }
  });

  it('plants the search word exactly as often as it reports', () => {
    const occurrences = transcripts.reduce((sum, t) => sum + t.text.split(viaCli.searchNeedle.text).length - 1, 0);
    expect(occurrences).toBe(viaCli.searchNeedle.transcriptOccurrences);
    expect(occurrences).toBeGreaterThan(0);
  });

  it('writes the 1,000-topic-file memory folder, other memory folders and agent memories', () => {
    const doctor = filesUnder(viaCli.doctorProject.memoryDir).filter((name) => name.endsWith('.md') && name !== 'MEMORY.md');
    expect(doctor.length).toBe(1000);
    expect(viaCli.doctorProject.topicFiles).toBe(1000);
    const frontmatters = doctor.slice(0, 8).map((name) => readFileSync(join(viaCli.doctorProject.memoryDir, name), 'utf8').split('\n')[0]);
    expect(frontmatters).toContain('---');
    expect(filesUnder(join(viaCli.root, 'agent-memory')).some((name) => name.endsWith('MEMORY.md'))).toBe(true);
  });

  it('refuses a folder that is not empty and leaves it as it was', async () => {
    const occupied = join(tmp, 'occupied');
    mkdirSync(occupied);
    writeFileSync(join(occupied, 'keep.txt'), 'mine');
    const before = await snapshotTree(occupied);
    let stderr = '';
    const code = await runGenerateCommand(
      ['--size', 'small', '--out', occupied],
      { stdout: () => undefined, stderr: (t) => (stderr += t) },
      'npm run bench -- gen',
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/not empty/);
    expect(await snapshotTree(occupied)).toEqual(before);
  });
});
