import type { CatalogTranscriptFile } from '../../catalog/SessionCatalog';
import { memoryFolderTest } from './fileHistorySnapshots';
import type { ArchiveCandidate } from './TranscriptArchive';

/** The catalog's transcripts on disk as the archive takes them: one memory-folder test per project, shared by its files. */
export function candidatesFromCatalog(files: readonly CatalogTranscriptFile[]): ArchiveCandidate[] {
  const tests = new Map<string, (path: string) => boolean>();
  return files.map((file) => {
    const key = `${file.configRoot}\0${file.memoryDir}`;
    let isMemoryPath = tests.get(key);
    if (!isMemoryPath) {
      isMemoryPath = memoryFolderTest(file.configRoot, file.memoryDir);
      tests.set(key, isMemoryPath);
    }
    return {
      path: file.path,
      configRoot: file.configRoot,
      slug: file.slug,
      sessionId: file.sessionId,
      agentId: file.agentId,
      layout: file.layout,
      identity: file.identity,
      cwd: file.cwd,
      isMemoryPath,
    };
  });
}
