import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanMemoryFolder } from '../../../electron/core/layout/memoryFolderScan';
import { MAX_MEMORY_FOLDER_DEPTH } from '../../../electron/core/layout/memoryFolderWalk';
import { HomeSearch } from '../../../electron/core/search/HomeSearch';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';

/** `depth` nested folders, then the file: `1/2/…/depth/name`. */
function nestedPath(depth: number, name: string): string {
  return [...Array.from({ length: depth }, (_, index) => String(index + 1)), name].join('/');
}

describe('search reads a memory folder as deep as the memory page lists it', () => {
  let home: ScenarioHome;
  let memoryDir: string;

  beforeAll(async () => {
    home = await createScenarioHome();
    const project = home.project(home.workPath('deep'));
    memoryDir = project.memoryDir;
    await project.memory('MEMORY.md', '- [deep](deep.md)\n');
    // Deeper than the search's own old limit (6), within the one limit; and one folder past it.
    await project.memory(nestedPath(10, 'within.md'), 'kestrelwing within the limit\n');
    await project.memory(nestedPath(MAX_MEMORY_FOLDER_DEPTH, 'deepest.md'), 'kestrelwing at the limit\n');
    await project.memory(nestedPath(MAX_MEMORY_FOLDER_DEPTH + 1, 'beyond.md'), 'kestrelwing past the limit\n');
  });

  afterAll(() => home.cleanup());

  it('finds the word in exactly the files the memory folder scan lists', async () => {
    const search = new HomeSearch({ roots: [home.root] });
    const paths: string[] = [];
    try {
      await search.search('kestrelwing', { onHit: (hit) => paths.push(hit.path) });
    } finally {
      await search.dispose();
    }
    const listed = (await scanMemoryFolder(memoryDir)).topicFiles.map((file) => file.absolutePath);
    const withWord = listed.filter((path) => !path.endsWith('MEMORY.md'));
    expect(withWord.map((path) => path.slice(memoryDir.length + 1)).sort()).toEqual(
      [nestedPath(10, 'within.md'), nestedPath(MAX_MEMORY_FOLDER_DEPTH, 'deepest.md')].sort(),
    );
    expect(paths.sort()).toEqual(withWord.sort());
  });
});
