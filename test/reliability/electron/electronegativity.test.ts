import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { recordFigure } from '../support/figureLog';

vi.mock('electron', () => ({ BrowserWindow: class {}, shell: { openExternal: () => Promise.resolve() } }));

const { buildContentSecurityPolicy } = await import('../../../electron/main/security');
const { mainWindowOptions } = await import('../../../electron/main/window');
const { WEB_CONTENT_SECURITY_POLICY } = await import('../../../electron/server/WebShellServer');

const repoRoot = resolve(import.meta.dirname, '../../..');

interface AllowedFinding {
  readonly id: string;
  readonly file: string;
  readonly sample: string | null;
  readonly reason: string;
}

interface AllowList {
  readonly excludedChecks: readonly { readonly check: string; readonly reason: string }[];
  readonly findings: readonly AllowedFinding[];
}

interface Finding {
  readonly id: string;
  readonly file: string;
  readonly sample?: unknown;
  readonly description: string;
  readonly location?: { readonly line: number };
}

interface ScanResult {
  readonly issues: readonly Finding[];
  readonly errors: readonly { readonly file: string; readonly message: string; readonly tolerable: boolean }[];
}

type Electronegativity = (options: Record<string, unknown>) => Promise<ScanResult>;

const allowList = JSON.parse(readFileSync(join(import.meta.dirname, 'electronegativityAllowList.json'), 'utf8')) as AllowList;
const scanDir = mkdtempSync(join(tmpdir(), 'ccmem-electronegativity-'));
afterAll(() => rmSync(scanDir, { recursive: true, force: true }));

function sampleOf(finding: Finding): string | null {
  return typeof finding.sample === 'string' ? finding.sample.trim() : null;
}

function matches(entry: AllowedFinding, finding: Finding): boolean {
  return entry.id === finding.id && entry.file === finding.file && entry.sample === sampleOf(finding);
}

describe('Electronegativity over our sources', () => {
  it('raises no finding that the reviewed allow-list does not justify', { timeout: 120_000 }, async () => {
    // Our sources as the tool expects an app folder, plus the policies the app builds at run time (it cannot evaluate code).
    for (const part of ['electron', 'renderer', 'shared', 'package.json', 'package-lock.json']) {
      cpSync(join(repoRoot, part), join(scanDir, part), { recursive: true });
    }
    const policies = [buildContentSecurityPolicy(null), WEB_CONTENT_SECURITY_POLICY];
    writeFileSync(
      join(scanDir, 'runtime-policies.html'),
      `<!doctype html><html><head>\n${policies.map((p) => `<meta http-equiv="Content-Security-Policy" content="${p}">`).join('\n')}\n</head></html>\n`,
    );
    const run = createRequire(import.meta.url)('@doyensec/electronegativity') as Electronegativity;
    const result = await run({
      input: scanDir,
      isRelative: true,
      excludeFromScan: allowList.excludedChecks.map((excluded) => excluded.check),
    });

    const unjustified = result.issues.filter((finding) => !allowList.findings.some((entry) => matches(entry, finding)));
    const stale = allowList.findings.filter((entry) => !result.issues.some((finding) => matches(entry, finding)));
    recordFigure('electronegativity', {
      findings: result.issues.length,
      justified: result.issues.length - unjustified.length,
      unjustified: unjustified.length,
    });
    // Its exit code says nothing; what it printed does: every finding, and every file it could not read.
    expect(result.errors.filter((error) => !error.tolerable)).toEqual([]);
    expect(
      unjustified.map((f) => `${f.id} ${f.file}:${f.location?.line ?? '?'} ${sampleOf(f) ?? ''} — ${f.description}`),
      'findings without a reviewed reason in electronegativityAllowList.json',
    ).toEqual([]);
    expect(
      stale.map((e) => `${e.id} ${e.file} ${e.sample ?? ''}`),
      'allow-list entries that match nothing any more: review them',
    ).toEqual([]);
    for (const entry of allowList.findings) expect(entry.reason.length, `${entry.id} needs a reason`).toBeGreaterThan(40);
  });

  it('rests its window justifications on what mainWindowOptions really sets', () => {
    expect(mainWindowOptions('/app/out/preload/index.cjs').webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
    });
  });

  it('rests its policy justifications on scripts from our own origin only', () => {
    for (const policy of [buildContentSecurityPolicy(null), WEB_CONTENT_SECURITY_POLICY]) {
      const scriptSources = /(?:^|; )script-src ([^;]*)/.exec(policy)?.[1].split(' ');
      expect(scriptSources).toEqual(["'self'"]);
      expect(policy).toMatch(/(?:^|; )object-src 'none'/);
      expect(policy).toMatch(/(?:^|; )base-uri 'none'/);
    }
  });
});
