import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CodedError } from '../../../shared/result';
import { createEngine } from '../../../electron/core/engine';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { SecretScanner } from '../../../electron/core/secrets/secretScan';
import { createScenarioHome, topicFile } from '../../fixtures/scenarioHome';
import { recordFigure } from '../support/figureLog';
import { lookAlikes, plantedSecrets, type CorpusEntry } from '../support/secretCorpus';

/** Every line the app printed while the test ran, wherever it went. */
function captureOutput(): { text: () => string; restore: () => void } {
  const chunks: string[] = [];
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (chunks.push(String(chunk)), true)),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (chunks.push(String(chunk)), true)),
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void chunks.push(args.map(String).join(' '))),
    ),
  ];
  return { text: () => chunks.join('\n'), restore: () => spies.forEach((spy) => spy.mockRestore()) };
}

/** Every file of the app's data folder except version blobs, which hold memory text by design. */
async function metadataText(dataDir: string): Promise<string> {
  const names = (await readdir(dataDir, { recursive: true }).catch(() => [] as string[])).filter(
    (name) => !name.split('/').includes('blobs'),
  );
  const parts: string[] = [];
  for (const name of names) parts.push(await readFile(join(dataDir, name), 'utf8').catch(() => ''));
  return parts.join('\n');
}

describe('secrets in memory', () => {
  let output: ReturnType<typeof captureOutput>;
  beforeEach(() => {
    output = captureOutput();
  });
  afterEach(() => output.restore());

  it('are found per rule, and look-alikes are not', async () => {
    const scanner = new SecretScanner();
    const scan = async (entry: CorpusEntry) => (await scanner.scan(contentHash(entry.text), entry.text)).length > 0;
    const rules = [...new Set([...plantedSecrets, ...lookAlikes].map((e) => e.rule))].sort();
    const missed: string[] = [];
    const falseAlarms: string[] = [];
    for (const rule of rules) {
      const planted = plantedSecrets.filter((e) => e.rule === rule);
      const similar = lookAlikes.filter((e) => e.rule === rule);
      let found = 0;
      let alarms = 0;
      for (const entry of planted) {
        if (await scan(entry)) found++;
        else missed.push(`${rule}: ${entry.text.split('\n')[0].slice(0, 40)}…`);
      }
      for (const entry of similar) {
        if (await scan(entry)) {
          alarms++;
          falseAlarms.push(`${rule}: ${entry.text.slice(0, 60)}`);
        }
      }
      recordFigure('secretDetection', { found, planted: planted.length, falseAlarms: alarms, lookAlikes: similar.length }, rule);
    }
    recordFigure('badInputs', { tried: plantedSecrets.length + lookAlikes.length }, 'secrets');
    output.restore();
    // SEC1 EC keys (base64 "MH…") fail secretlint's "MI…" magic-byte check; the scanner's own PEM check finds them.
    expect(missed).toEqual([]);
    expect(falseAlarms).toEqual([]);
  });

  it('are found in many texts scanned together exactly as in each text alone, even where a key is split across two texts', async () => {
    const key = plantedSecrets.find((e) => e.rule === 'privatekey' && e.text.includes('RSA PRIVATE KEY'))!.text;
    const begin = key.indexOf('-----BEGIN');
    const end = key.indexOf('-----END');
    // The first half of a key at the end of one file and the rest at the start of the next: no file holds a key.
    const texts = [
      ...plantedSecrets.map((e) => e.text),
      ...lookAlikes.map((e) => e.text),
      `Notes\n${key.slice(begin, end)}`,
      `${key.slice(end)}\nMore notes`,
      'Nothing here.',
    ];
    const items = texts.map((text) => ({ hash: contentHash(text), text }));
    const together = await new SecretScanner().scanMany(items);
    const alone: unknown[] = [];
    for (const item of items) alone.push(await new SecretScanner().scan(item.hash, item.text));
    expect(together).toEqual(alone);
    expect(together.filter((hits) => hits.length > 0).length).toBe(plantedSecrets.length);
  });

  it('are never shared into team memory or a snapshot, and never echoed in output or history metadata', async () => {
    const home = await createScenarioHome({ prefix: 'ccmem-secrets-' });
    const dataDir = join(home.tmp, 'data');
    const engine = await createEngine({
      roots: [{ path: home.root, source: 'CLAUDE_CONFIG_DIR' }],
      dataDir,
      demoHomeSource: null,
      shell: 'cli',
      readOnly: false,
      watch: false,
    });
    try {
      const projectPath = home.workPath('leaky');
      const project = home.project(projectPath);
      await project.session({ turns: 1 });
      await project.memory('team/MEMORY.md', '- [Rules](rules.md) — team rules\n');
      await project.memory(
        'team/rules.md',
        topicFile({ variant: 'flat', name: 'rules', description: 'team rules', type: 'feedback', body: 'Be kind.\n' }),
      );
      const scanner = new SecretScanner();
      const secrets: CorpusEntry[] = [];
      for (const entry of plantedSecrets) if ((await scanner.scan(contentHash(entry.text), entry.text)).length > 0) secrets.push(entry);
      for (const [index, entry] of secrets.entries()) {
        await project.memory(
          `private_${index}.md`,
          topicFile({ variant: 'flat', name: `p${index}`, description: 'private', type: 'reference', body: `${entry.text}\n` }),
        );
      }
      const agentDir = await home.agentMemory(
        'project',
        'reviewer',
        { 'MEMORY.md': '- [Keys](keys.md) — keys\n', 'keys.md': `${secrets[0].text}\n` },
        projectPath,
      );
      await engine.home.refresh();
      const ref = { kind: 'project' as const, configRoot: home.root, slug: project.slug };

      let attempts = 0;
      let blocked = 0;
      const leaked: string[] = [];
      const tryToShare = async (what: string, share: () => Promise<unknown>): Promise<void> => {
        attempts++;
        const refused = await share().then(
          () => false,
          (error: unknown) => error instanceof CodedError,
        );
        if (refused) blocked++;
        else leaked.push(what);
      };
      for (const [index, entry] of secrets.entries()) {
        await tryToShare(`create team/shared_${index}.md (${entry.rule})`, () =>
          engine.memory.create(ref, {
            scope: 'team',
            fileName: `shared_${index}.md`,
            name: `s${index}`,
            description: 'shared',
            type: 'reference',
            body: entry.text,
          }),
        );
        await tryToShare(`move private_${index}.md into team/ (${entry.rule})`, async () =>
          engine.memory.rename(ref, {
            from: `private_${index}.md`,
            to: `team/moved_${index}.md`,
            baseHash: (await engine.memory.readFile(ref, `private_${index}.md`)).hash,
          }),
        );
        await tryToShare(`save it into team/rules.md (${entry.rule})`, async () =>
          engine.memory.save(ref, {
            relativePath: 'team/rules.md',
            baseHash: (await engine.memory.readFile(ref, 'team/rules.md')).hash,
            body: `Be kind.\n${entry.text}\n`,
          }),
        );
      }
      await tryToShare('create a snapshot of agent memory holding a secret', () =>
        engine.agentSnapshots.apply({ ref: { dir: agentDir }, command: 'create' }),
      );

      // What the review says about the secrets: found, located, never shown.
      const review = await engine.memory.getReview(ref);
      const secretFindings = review.findings.filter((finding) => finding.code === 'secret.detected');
      const everything = [output.text(), JSON.stringify(review), await metadataText(dataDir)].join('\n');
      const echoed = secrets.filter((entry) => everything.includes(entry.secret.split('\n')[1] ?? entry.secret)).map((entry) => entry.rule);

      recordFigure('badInputs', { tried: attempts }, 'secrets');
      recordFigure('faults', { injected: attempts, survived: blocked }, 'secret shared');
      output.restore();
      expect(leaked).toEqual([]);
      expect(echoed).toEqual([]);
      expect(new Set(secretFindings.map((f) => f.file)).size).toBe(secrets.length);
    } finally {
      output.restore();
      await engine.dispose();
      await home.cleanup();
    }
  }, 60_000);
});
