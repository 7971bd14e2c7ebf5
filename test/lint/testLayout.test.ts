import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '../..');
const unitRoot = join(repoRoot, 'test', 'unit');

/** Where the first folder under test/unit points in the source: a unit test sits in the folder of the module it tests. */
const SOURCE_OF_AREA: Readonly<Record<string, string>> = {
  core: 'electron/core',
  cli: 'electron/cli',
  main: 'electron/main',
  preload: 'electron/preload',
  server: 'electron/server',
  shared: 'shared',
  renderer: 'renderer/src',
};

/** Helpers the tests of one folder share sit in a `support` folder beside them: they mirror that folder. */
const SUPPORT_FOLDER = 'support';

/** The source folder a file under test/unit mirrors (given relative to test/unit), or null when no area owns it. */
function mirroredSourceFolder(unitFile: string): string | null {
  const folders = dirname(unitFile).split(sep);
  if (folders.at(-1) === SUPPORT_FOLDER) folders.pop();
  const [area, ...rest] = folders;
  const source = SOURCE_OF_AREA[area];
  if (source === undefined) return null;
  return join(source, ...rest);
}

function isFolder(repoPath: string): boolean {
  const path = join(repoRoot, repoPath);
  return existsSync(path) && statSync(path).isDirectory();
}

/** The files under test/unit whose folder is not a source folder, e.g. a test left behind when its module moved. */
function unmirroredFiles(unitFiles: readonly string[]): string[] {
  return unitFiles.filter((file) => {
    const source = mirroredSourceFolder(file);
    return source === null || !isFolder(source);
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(unitRoot, join(entry.parentPath, entry.name)));
}

describe('test/unit mirrors the source tree', () => {
  it('refuses a file in an area or a folder the source does not have', () => {
    const misplaced = [
      join('catalog', 'buildQueue.test.ts'),
      join('core', 'catalogue', 'buildQueue.test.ts'),
      join('core', 'support', 'catalog', 'lines.ts'),
      'loose.test.ts',
    ];
    const mirrored = [
      join('core', 'catalog', 'buildQueue.test.ts'),
      join('shared', 'memory', 'fixes', 'fixPlanner.test.ts'),
      join('renderer', 'support', 'pageWindow.ts'),
    ];
    expect(unmirroredFiles([...misplaced, ...mirrored])).toEqual(misplaced);
  });

  it('puts every unit test in the folder of the module it tests', () => {
    expect(unmirroredFiles(filesUnder(unitRoot))).toEqual([]);
  });
});
