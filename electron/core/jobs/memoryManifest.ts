import { frontmatterField, parseFrontmatter } from '../memory/frontmatter';
import { INDEX_FILE_NAME } from '../../../shared/memory/indexFileName';
import type { StagingOverlay } from './StagingOverlay';

/** Claude Code considers at most this many memories (MAX_MEMORY_FILES). */
const MAX_LISTED_MEMORIES = 200;

/**
 * The list of existing memories an extraction pass sees, one line each as Claude Code lists them:
 * `- [type] path: description`. Built from the overlay, so later chunks see what earlier ones staged.
 */
export function memoryManifest(overlay: StagingOverlay): string {
  const lines: string[] = [];
  for (const path of overlay.livePaths()) {
    const name = path.split('/').pop() ?? path;
    if (!name.toLowerCase().endsWith('.md') || name === INDEX_FILE_NAME) continue;
    const read = overlay.read(path);
    if (read.kind !== 'text') continue;
    const { data } = parseFrontmatter(read.content);
    const type = frontmatterField(data, 'type');
    const description = frontmatterField(data, 'description');
    lines.push(`- ${type ? `[${type}] ` : ''}${path}${description ? `: ${description.replace(/\s+/g, ' ').slice(0, 300)}` : ''}`);
    if (lines.length >= MAX_LISTED_MEMORIES) break;
  }
  return lines.join('\n');
}
