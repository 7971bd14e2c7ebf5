import { join } from 'node:path';

/** The transcript archive's folder in the app data folder. */
export function archiveDir(dataDir: string): string {
  return join(dataDir, 'archive');
}
