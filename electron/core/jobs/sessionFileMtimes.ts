import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { isSessionFileName, sessionIdFromFileName } from '../../../shared/claude/sessionFiles';
import type { ProjectRef } from '../../../shared/model/home';
import { mapLimit } from '../async/mapLimit';

/**
 * The mtime of every session file of a project, read from disk now: what Claude Code's session gate counts
 * (`listSessionsTouchedSince`: UUID-named `.jsonl` files in the project's folder, sub-agent files excluded).
 */
export async function readSessionFileMtimes(ref: ProjectRef): Promise<[sessionId: string, mtimeMs: number][]> {
  const dir = join(ref.configRoot, 'projects', ref.slug);
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter(isSessionFileName);
  const stats = await mapLimit(names, 16, (name) => fs.stat(join(dir, name)).catch(() => null));
  return names.flatMap((name, index) => {
    const stat = stats[index];
    return stat?.isFile() ? [[sessionIdFromFileName(name), stat.mtimeMs] as [string, number]] : [];
  });
}
