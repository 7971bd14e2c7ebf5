import { join } from 'node:path';
import type { ProjectRef } from '../../../shared/model/home';
import type { MemoryFolderListing } from '../../../shared/model/memory';
import type { ItemWarning } from '../../../shared/model/warnings';
import { INDEX_FILE_NAME } from '../../../shared/memory/indexFileName';
import { mapLimit } from '../async/mapLimit';
import { describeFsError, readSmallText, statOrNull, warning } from '../fs/readSafely';
import type { HomeService } from '../home/HomeService';
import { scanMemoryFolder } from '../layout/memoryFolderScan';
import { readConsolidationLockStatus } from '../lock/consolidationLockStatus';
import { summarizeMemoryFile } from './memoryFileSummary';

/** MEMORY.md is loaded whole by the UI; anything beyond this is not an index any more and is cut for display. */
const MAX_INDEX_BYTES = 4 * 1024 * 1024;

/** A project's memory folder as the Memory page lists it: the index text, every topic file's facts, the lock. */
export async function listMemoryFiles(home: HomeService, ref: ProjectRef): Promise<MemoryFolderListing> {
  const project = await home.project(ref);
  const memoryDir = project.memoryDir;
  const warnings: ItemWarning[] = [];
  const exists = project.memoryDirExists;
  const scan = exists ? await scanMemoryFolder(memoryDir) : { topicFiles: [], warnings: [] };
  warnings.push(...scan.warnings);
  const files = await mapLimit(scan.topicFiles, 16, summarizeMemoryFile);
  let indexText: string | null = null;
  const indexPath = join(memoryDir, INDEX_FILE_NAME);
  if (exists && (await statOrNull(indexPath))) {
    try {
      indexText = await readSmallText(indexPath, MAX_INDEX_BYTES);
    } catch (error) {
      warnings.push(warning('unreadable', `Cannot read MEMORY.md: ${describeFsError(error)}`, indexPath));
    }
  }
  return { memoryDir, exists, indexText, files, lock: await readConsolidationLockStatus(memoryDir), warnings };
}
