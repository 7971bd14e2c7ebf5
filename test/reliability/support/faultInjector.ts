import fs, { promises as fsp } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { sep } from 'node:path';

/** The errors a disk, a quota or the OS can throw at any step of a write. */
export const INJECTED_CODES = ['ENOSPC', 'EIO', 'EACCES', 'EMFILE'] as const;
export type InjectedCode = (typeof INJECTED_CODES)[number];

const PATH_OPERATIONS = [
  'access',
  'appendFile',
  'chmod',
  'copyFile',
  'cp',
  'link',
  'lstat',
  'mkdir',
  'open',
  'readFile',
  'readdir',
  'realpath',
  'rename',
  'rm',
  'rmdir',
  'stat',
  'symlink',
  'truncate',
  'unlink',
  'utimes',
  'writeFile',
] as const;
/** Synchronous calls the safe writer makes back to back, to keep the moment a file is swapped short. */
const SYNC_OPERATIONS = ['linkSync', 'readFileSync', 'renameSync'] as const;
const HANDLE_OPERATIONS = [
  'appendFile',
  'chmod',
  'close',
  'datasync',
  'read',
  'readFile',
  'stat',
  'sync',
  'truncate',
  'utimes',
  'write',
  'writeFile',
] as const;

type AnyFunction = (...args: unknown[]) => unknown;

function injectedError(code: InjectedCode, operation: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected fault in ${operation}`), { code, syscall: operation, errno: -1 });
}

/**
 * Fails the k-th file system call made under one folder with a chosen error, or runs another program's write
 * just before it, by wrapping node:fs's promise API (and the FileHandle methods of handles opened under that
 * folder) in place, so the code under test runs unchanged. `trace` lists every call it saw; arm nothing to
 * learn how many steps a write path has. Synchronous node:fs calls are not wrapped: interleaved writes use them.
 */
export class FaultInjector {
  readonly trace: string[] = [];
  private armedAt: number | null = null;
  private interleave: (() => void) | null = null;
  private interleaving = false;
  private code: InjectedCode = 'EIO';
  private restore: (() => void)[] = [];
  private readonly handles = new WeakSet<object>();

  constructor(private readonly scope: string) {}

  /** The next calls are counted from 1; call number `step` fails with `code`. */
  arm(step: number | null, code: InjectedCode = 'EIO'): void {
    this.trace.length = 0;
    this.armedAt = step;
    this.code = code;
    this.interleave = null;
  }

  /** The next calls are counted from 1; just before call number `step` runs, `action` runs (another program's write). */
  armInterleaving(step: number, action: () => void): void {
    this.trace.length = 0;
    this.armedAt = step;
    this.interleave = action;
  }

  /** The call that failed in the last armed run, or null when the run had fewer steps. */
  get firedOperation(): string | null {
    return this.armedAt !== null && this.trace.length >= this.armedAt ? this.trace[this.armedAt - 1] : null;
  }

  async install(): Promise<void> {
    // Closures over these, not over `this`: the wrappers run with the file system object or a FileHandle as `this`.
    const step = (operation: string): void => this.step(operation);
    const inScope = (path: unknown): boolean => this.inScope(path);
    const isInterleaving = (): boolean => this.interleaving;
    const handles = this.handles;

    const promises = fsp as unknown as Record<string, AnyFunction>;
    for (const name of PATH_OPERATIONS) {
      const original = promises[name];
      if (typeof original !== 'function') continue;
      const twoPaths = name === 'rename' || name === 'link' || name === 'copyFile';
      promises[name] = async function (this: unknown, ...args: unknown[]) {
        if (!inScope(args[0]) && !(twoPaths && inScope(args[1]))) return original.apply(this, args);
        step(name);
        const result = await original.apply(this, args);
        if (name === 'open' && result && typeof result === 'object') handles.add(result);
        return result;
      };
      this.restore.push(() => (promises[name] = original));
    }
    const sync = fs as unknown as Record<string, AnyFunction>;
    for (const name of SYNC_OPERATIONS) {
      const original = sync[name];
      sync[name] = function (this: unknown, ...args: unknown[]) {
        if (!isInterleaving() && (inScope(args[0]) || inScope(args[1]))) step(name);
        return original.apply(this, args);
      };
      this.restore.push(() => (sync[name] = original));
    }
    // FileHandle is not exported: reach its prototype through a handle.
    const probe = await fsp.open(process.execPath, 'r');
    const prototype = Object.getPrototypeOf(probe) as Record<string, AnyFunction>;
    await probe.close();
    for (const name of HANDLE_OPERATIONS) {
      const original = prototype[name];
      if (typeof original !== 'function') continue;
      prototype[name] = function (this: object, ...args: unknown[]) {
        if (!handles.has(this)) return original.apply(this, args);
        try {
          step(`handle.${name}`);
        } catch (error) {
          return Promise.reject(error);
        }
        return original.apply(this, args);
      };
      this.restore.push(() => (prototype[name] = original));
    }
    syncBuiltinESMExports();
  }

  uninstall(): void {
    for (const undo of this.restore.reverse()) undo();
    this.restore = [];
    syncBuiltinESMExports();
  }

  private inScope(path: unknown): boolean {
    const text = typeof path === 'string' ? path : path instanceof URL ? path.pathname : Buffer.isBuffer(path) ? path.toString() : null;
    return text !== null && (text === this.scope || text.startsWith(this.scope + sep));
  }

  private step(operation: string): void {
    this.trace.push(operation);
    if (this.armedAt === null || this.trace.length !== this.armedAt) return;
    if (!this.interleave) throw injectedError(this.code, operation);
    // The other program's own calls are not steps of the write path under test.
    this.interleaving = true;
    try {
      this.interleave();
    } finally {
      this.interleaving = false;
    }
  }
}
