import { dirname, join } from 'node:path';
import { CodedError } from '../../../shared/result';
import { unusablePathReason } from '../fs/fileNameRules';
import { resolveInside } from '../fs/pathContainment';
import { LOCK_FILE_NAME } from '../lock/consolidationLockStatus';
import { TEAM_MEMORY_MAX_FILE_BYTES, type SharedFiles } from './sharedFileGuard';

/** Which files of a root may be changed; every other name is refused. */
export type WritableFiles =
  /** `*.md` at any depth: a memory folder. */
  | { readonly kind: 'memory-files' }
  /** Any file directly in the folder: a snapshot carries every regular file of an agent's memory and two JSON markers. */
  | { readonly kind: 'top-level-files' }
  /** Exactly these relative paths: a non-memory file the app may change (a settings file). */
  | { readonly kind: 'listed'; readonly paths: readonly string[] };

/**
 * A folder the change-set writer writes in, and the rules that come with it. Each change set lands in one root,
 * and history records it under `dir`.
 */
export interface WriteRoot {
  /** The folder, absolute. */
  readonly dir: string;
  /**
   * The folder `dir` must really lie in, through any symlink: the project for its agent memory and snapshots,
   * the config root for user-scope agent memory, the parent folder for auto memory. Outside it nothing is read or written.
   */
  readonly boundary: string;
  readonly writable: WritableFiles;
  /** Files under it leave this machine: no secret goes in (team memory, a committed snapshot). */
  readonly shared: SharedFiles | null;
}

const MEMORY_FILES: WritableFiles = { kind: 'memory-files' };

/** A project's auto memory: `*.md`, its `team/` shared with the team through Claude Code's sync. */
export function autoMemoryRoot(memoryDir: string): WriteRoot {
  return {
    dir: memoryDir,
    boundary: dirname(memoryDir),
    writable: MEMORY_FILES,
    shared: { under: 'team/', maxFileBytes: TEAM_MEMORY_MAX_FILE_BYTES, sharedWith: 'team memory' },
  };
}

/** An agent's memory folder; snapshot actions write every top-level file of it, the editor only memory files. */
export function agentMemoryRoot(dir: string, boundary: string, writable: WritableFiles = MEMORY_FILES): WriteRoot {
  return { dir, boundary, writable, shared: null };
}

/** A project's committed snapshot of one agent's memory: it is shared through the repository. */
export function agentSnapshotRoot(dir: string, boundary: string): WriteRoot {
  return {
    dir,
    boundary,
    writable: { kind: 'top-level-files' },
    shared: { under: '', maxFileBytes: null, sharedWith: 'a snapshot committed to the repository' },
  };
}

/** The name of Claude Code's user settings file in a config root. */
export const CLAUDE_SETTINGS_FILE = 'settings.json';

/**
 * A config root, for the one file of it the app may change: Claude Code's user settings (turning its own auto-dream
 * off). The root is its own boundary, so a config root that is itself a symlink (a dotfiles checkout) still works;
 * a `settings.json` that is a symlink is refused like any other.
 */
export function claudeSettingsRoot(configRoot: string): WriteRoot {
  return { dir: configRoot, boundary: configRoot, writable: { kind: 'listed', paths: [CLAUDE_SETTINGS_FILE] }, shared: null };
}

function writableByRule(writable: WritableFiles, relativePath: string): boolean {
  switch (writable.kind) {
    case 'memory-files':
      return relativePath.toLowerCase().endsWith('.md');
    case 'top-level-files':
      return !relativePath.includes('/');
    case 'listed':
      return writable.paths.includes(relativePath);
  }
}

/**
 * Why `relativePath` may not be changed under `root`, judged by the name alone (the file system is checked at the
 * write), or null when it may: it must lie lexically inside, be a usable canonical name (see `unusablePathReason`),
 * not be the dream lock, and be one of the files the root takes.
 */
export function nameRefusal(root: WriteRoot, relativePath: string): CodedError | null {
  if (resolveInside(root.dir, relativePath) === null)
    return new CodedError('OUTSIDE_ROOT', `${JSON.stringify(relativePath)} is outside ${root.dir}`);
  const unusable = unusablePathReason(relativePath, join(root.dir, relativePath));
  if (unusable !== null) return new CodedError('INVALID_INPUT', `${JSON.stringify(relativePath)} cannot be written: ${unusable}`);
  if (relativePath.split('/').at(-1) === LOCK_FILE_NAME)
    return new CodedError('INVALID_INPUT', 'The dream lock is never written but through its protocol');
  if (!writableByRule(root.writable, relativePath))
    return new CodedError(
      'INVALID_INPUT',
      root.writable.kind === 'memory-files'
        ? `Only memory files (*.md) can be changed, not ${relativePath}`
        : `${relativePath} is not a file this app changes in ${root.dir}`,
    );
  return null;
}
