import type { MemoryPathTest } from './transcriptAggregate';

/**
 * A memory folder as recorded on whichever machine wrote the transcript: `…/.claude/projects/<slug>/memory/…`
 * with either separator (real transcripts from Windows keep `C:\Users\…\.claude\projects\…\memory\…`).
 */
const RECORDED_MEMORY_FOLDER = /[\\/]\.claude[\\/]projects[\\/][^\\/]+[\\/]memory[\\/]/;

function withTrailingSeparator(dir: string): string {
  return dir.endsWith('/') || dir.endsWith('\\') ? dir : `${dir}/`;
}

function toSlashes(path: string): string {
  return path.replace(/\\/g, '/');
}

/**
 * Whether a tool call's `file_path` lies in a memory folder of the session's project: the project's own
 * memory folder (which settings may move anywhere), any `projects/<slug>/memory/` of this config root, or a
 * memory folder as recorded on another machine.
 */
export function memoryPathMatcher(configRoot: string, memoryDir: string): MemoryPathTest {
  const own = toSlashes(withTrailingSeparator(memoryDir));
  const rootProjects = toSlashes(withTrailingSeparator(configRoot)) + 'projects/';
  return (path) => {
    const normal = toSlashes(path);
    // `memory/../x` is not in the memory folder, whatever its prefix says.
    if (normal.split('/').includes('..')) return false;
    if (normal.startsWith(own)) return true;
    if (normal.startsWith(rootProjects)) {
      const rest = normal.slice(rootProjects.length).split('/');
      if (rest.length >= 3 && rest[1] === 'memory') return true;
    }
    return RECORDED_MEMORY_FOLDER.test(path);
  };
}
