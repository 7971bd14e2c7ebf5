import { promises as fs, type Stats } from 'node:fs';

/** The `code` of a Node system error (`ENOENT`, `EACCES`…), undefined for anything else. */
export function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** The entry itself (a symlink is not followed), or null when nothing is there; other failures are thrown. */
export async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await fs.lstat(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
}
