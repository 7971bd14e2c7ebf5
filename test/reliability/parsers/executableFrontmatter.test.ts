import fc from 'fast-check';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HomeService } from '../../../electron/core/home/HomeService';
import { frontmatterField, parseFrontmatter } from '../../../electron/core/memory/frontmatter';
import { createScenarioHome } from '../../fixtures/scenarioHome';
import { recordFigure } from '../support/figureLog';
import { atScale, timeoutAtScale } from '../support/reliabilityScale';
import { listMemoryFiles } from '../../../electron/core/memory/memoryFolderListing';

/** Anything that runs this code leaves two traces: a counter on globalThis and a file on disk. */
const canaryDir = mkdtempSync(join(tmpdir(), 'ccmem-canary-'));
const canaryFile = join(canaryDir, 'frontmatter-ran');
const CANARY_GLOBAL = '__ccmemFrontmatterCanary';
const canaryCode = `(globalThis.${CANARY_GLOBAL} = (globalThis.${CANARY_GLOBAL} || 0) + 1, require('fs').writeFileSync(${JSON.stringify(canaryFile)}, 'ran'))`;

function canaryFired(): boolean {
  return (globalThis as Record<string, unknown>)[CANARY_GLOBAL] !== undefined || existsSync(canaryFile);
}

const prototypeKeysBefore = Object.getOwnPropertyNames(Object.prototype).sort();

function prototypePolluted(): boolean {
  const probe: Record<string, unknown> = {};
  return (
    probe.polluted !== undefined ||
    probe.name !== undefined ||
    JSON.stringify(Object.getOwnPropertyNames(Object.prototype).sort()) !== JSON.stringify(prototypeKeysBefore)
  );
}

/** Executable engines, spelled every way a library might honour them, each carrying the canary. */
const executableLanguages = ['js', 'javascript', 'JS', 'Javascript', 'coffee', 'coffeescript', 'cson', 'ts', 'typescript', 'eval'];

/** Memory files that try to run code or poison objects through their frontmatter. */
const hostileFiles: readonly string[] = [
  ...executableLanguages.map((language) => `---${language}\n({ name: ${canaryCode} })\n---\nbody\n`),
  `\uFEFF---js\n({ name: ${canaryCode} })\n---\nbody\n`,
  `---js\r\n({ name: ${canaryCode} })\r\n---\r\nbody\r\n`,
  `---js   \n${canaryCode}\n---\n`,
  `---node\n${canaryCode}\n---\n`,
  `--- js\n${canaryCode}\n---\n`,
  `---\nname: !!js/function 'function () { ${canaryCode} }'\n---\n`,
  `---\nname: !!js/eval '${canaryCode}'\n---\n`,
  `---\nname: !<tag:yaml.org,2002:js/function> 'function () { ${canaryCode} }'\n---\n`,
  `---\nname: !!js/undefined ''\ndescription: !!js/regexp /x/g\n---\n`,
  `---\nname: !!python/object/apply:os.system ['touch ${canaryFile}']\n---\n`,
  `---\nname: !include ${canaryFile}\n---\n`,
  `---\nname: "{{constructor.constructor('${canaryCode.replaceAll("'", "\\'")}')()}}"\ndescription: \${${canaryCode}}\n---\n`,
  `---\n__proto__:\n  polluted: yes\n  name: hijacked\nname: x\n---\n`,
  `---\nconstructor:\n  prototype:\n    polluted: yes\n---\n`,
  `---\nmetadata:\n  __proto__:\n    polluted: yes\n  type: user\n---\n`,
  `---\nbase: &b\n  __proto__: { polluted: yes }\nname:\n  <<: *b\n---\n`,
  `---\ntoString: not a function\nvalueOf: 1\nhasOwnProperty: nope\nname: x\n---\n`,
  `---\n"__proto__": { "polluted": true }\n---\n`,
  // Broken YAML falls back to reading lines; that fallback must not be a way in either.
  `---\n__proto__: polluted\nconstructor: x\nname: "unterminated\n---\n`,
];

afterAll(() => {
  rmSync(canaryDir, { recursive: true, force: true });
});

describe('executable frontmatter never runs', () => {
  it('refuses every executable engine and never runs code from YAML tags or poisons prototypes', () => {
    const outcomes = hostileFiles.map((text) => {
      const parsed = parseFrontmatter(text);
      // Reading fields is what the rest of the app does with the result: it must not trip over hostile keys.
      for (const key of ['name', 'description', 'type', 'originSessionId']) frontmatterField(parsed.data, key);
      return parsed;
    });
    recordFigure('codeExecutions', { executions: canaryFired() || prototypePolluted() ? 1 : 0, attempts: hostileFiles.length });
    recordFigure('badInputs', { tried: hostileFiles.length }, 'parsers');
    expect(canaryFired()).toBe(false);
    expect(prototypePolluted()).toBe(false);
    for (const [index, language] of executableLanguages.entries()) {
      expect(outcomes[index].variant, language).toBe('executable');
    }
    for (const parsed of outcomes) {
      for (const value of Object.values(parsed.data)) expect(typeof value).not.toBe('function');
    }
  });

  it('survives the same files in a real memory folder read by the engine', async () => {
    const home = await createScenarioHome({ prefix: 'ccmem-exec-fm-' });
    try {
      const project = home.project(home.workPath('victim'));
      await project.session({ turns: 1 });
      for (const [index, text] of hostileFiles.entries()) await project.memory(`hostile_${index}.md`, text);
      const service = new HomeService({
        roots: [{ path: home.root, source: 'CLAUDE_CONFIG_DIR' }],
        dataDir: join(home.tmp, 'data'),
        demoHomeSource: null,
        shell: 'cli',
        readOnly: true,
      });
      const listing = await listMemoryFiles(service, { configRoot: home.root, slug: project.slug });
      recordFigure('codeExecutions', { executions: canaryFired() || prototypePolluted() ? 1 : 0, attempts: hostileFiles.length });
      expect(listing.files).toHaveLength(hostileFiles.length);
      expect(canaryFired()).toBe(false);
      expect(prototypePolluted()).toBe(false);
      const executable = listing.files.filter((file) => file.variant === 'executable');
      expect(executable.length).toBeGreaterThanOrEqual(executableLanguages.length);
      for (const file of executable) expect(file.warnings.map((w) => w.code)).toContain('frontmatter-executable');
    } finally {
      await home.cleanup();
    }
  });

  it(
    'never runs code or throws for frontmatter assembled from hostile fragments',
    () => {
      const fragments = [
        canaryCode,
        `name: !!js/function 'function () { ${canaryCode} }'`,
        '__proto__: { polluted: yes }',
        'constructor: { prototype: { polluted: yes } }',
        '<<: { __proto__: { polluted: yes } }',
        'a: &a [1, 2]',
        'b: [*a, *a, *a]',
        'metadata:',
        '  type: user',
        'name: "unterminated',
        '? complex key',
        '- list item',
        '%YAML 1.1',
        '---',
        '...',
        '\t\u0000\u202e',
      ];
      const language = fc.oneof(fc.constantFrom('', 'yaml', 'yml', ...executableLanguages), fc.stringMatching(/^[A-Za-z]{0,12}$/));
      const inner = fc.array(fc.oneof(fc.constantFrom(...fragments), fc.string({ maxLength: 60 })), { maxLength: 12 });
      let runs = 0;
      fc.assert(
        fc.property(language, inner, fc.constantFrom('\n', '\r\n'), (lang, lines, eol) => {
          runs++;
          const parsed = parseFrontmatter(`---${lang}${eol}${lines.join(eol)}${eol}---${eol}body${eol}`);
          frontmatterField(parsed.data, 'name');
          return !canaryFired() && !prototypePolluted();
        }),
        { numRuns: atScale(400, 20_000) },
      );
      recordFigure('codeExecutions', { executions: canaryFired() || prototypePolluted() ? 1 : 0, attempts: runs });
      recordFigure('badInputs', { tried: runs }, 'parsers');
      expect(canaryFired()).toBe(false);
    },
    timeoutAtScale(20_000, 600_000),
  );
});
