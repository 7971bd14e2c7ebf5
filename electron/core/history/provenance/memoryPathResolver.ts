import { posix } from 'node:path';

/** A memory folder reconstruction maps transcript paths onto. */
export interface ResolvableFolder {
  readonly memoryDir: string;
  /** Other spellings of the same folder (its real path when it sits behind a symlink). */
  readonly aliases: readonly string[];
  readonly configRoot: string | null;
}

export interface ResolvedMemoryPath {
  readonly memoryDir: string;
  /** Relative to the memory folder, forward slashes. */
  readonly path: string;
}

/** A memory folder as any machine spells it: `…/projects/<slug>/memory/…`, `…/agent-memory[-local]/<type>/…`. */
const MEMORY_SHAPE = /\/(?:memory|agent-memory|agent-memory-local)\//;
const WINDOWS_DRIVE = /^[A-Za-z]:\//;

function toSlashes(path: string): string {
  return path.replace(/\\/g, '/').replace(/\/{2,}/g, '/');
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || WINDOWS_DRIVE.test(path);
}

interface Suffix {
  /** `/projects/<slug>/memory/` or `/agent-memory/<type>/`, matched anywhere in a foreign path. */
  readonly text: string;
  readonly memoryDir: string;
  readonly configRoot: string | null;
}

/**
 * Maps the file paths Claude Code typed into tool calls, `memory_saved` lines and file-history snapshots onto
 * the memory folders of this home: the folder as configured or its real path, and, for transcripts written
 * on another machine or under another home (a restored backup, a Windows path), the folder's own tail
 * (`projects/<slug>/memory/`, `agent-memory/<type>/`) where only one folder of this home has it.
 */
export class MemoryPathResolver {
  private readonly prefixes: { readonly prefix: string; readonly memoryDir: string }[] = [];
  private readonly suffixes: Suffix[] = [];

  constructor(folders: readonly ResolvableFolder[]) {
    for (const folder of folders) {
      for (const spelling of new Set([folder.memoryDir, ...folder.aliases])) {
        const prefix = toSlashes(spelling).replace(/\/$/, '') + '/';
        this.prefixes.push({ prefix, memoryDir: folder.memoryDir });
      }
      const parts = toSlashes(folder.memoryDir).split('/').filter(Boolean);
      const tail = parts.slice(-3);
      if (tail.length === 3 && tail[0] === 'projects' && tail[2] === 'memory')
        this.suffixes.push({ text: `/${tail.join('/')}/`, memoryDir: folder.memoryDir, configRoot: folder.configRoot });
      else if (parts.length >= 2 && (parts[parts.length - 2] === 'agent-memory' || parts[parts.length - 2] === 'agent-memory-local'))
        this.suffixes.push({ text: `/${parts.slice(-2).join('/')}/`, memoryDir: folder.memoryDir, configRoot: folder.configRoot });
    }
    // The deepest folder wins (team memory is inside a project's memory folder and tracked with it).
    this.prefixes.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** The memory file a path names, or null. `configRoot` (of the transcript) breaks ties between homes. */
  resolve(rawPath: string, cwd: string | null, configRoot: string | null = null): ResolvedMemoryPath | null {
    let path = toSlashes(rawPath.trim());
    if (!isAbsolute(path)) {
      if (!cwd) return null;
      path = toSlashes(`${toSlashes(cwd).replace(/\/$/, '')}/${path}`);
    }
    if (!path.toLowerCase().endsWith('.md') || path.split('/').some((part) => part === '..' || part === '.')) return null;
    for (const { prefix, memoryDir } of this.prefixes) {
      if (path.startsWith(prefix)) return this.relative(memoryDir, path.slice(prefix.length));
    }
    const matches = this.suffixes.filter((suffix) => path.includes(suffix.text));
    const chosen = matches.length === 1 ? matches[0] : (matches.find((m) => configRoot !== null && m.configRoot === configRoot) ?? null);
    if (!chosen) return null;
    return this.relative(chosen.memoryDir, path.slice(path.lastIndexOf(chosen.text) + chosen.text.length));
  }

  /** Worth keeping as evidence: a memory file of this home, or a path shaped like one (a folder found later). */
  looksLikeMemory(rawPath: string, cwd: string | null): boolean {
    if (this.resolve(rawPath, cwd) !== null) return true;
    const path = toSlashes(rawPath);
    return path.toLowerCase().endsWith('.md') && MEMORY_SHAPE.test(path);
  }

  private relative(memoryDir: string, rest: string): ResolvedMemoryPath | null {
    const path = posix.normalize(rest);
    if (!path || path === '.' || path.startsWith('../') || path.startsWith('/')) return null;
    return { memoryDir, path };
  }
}
