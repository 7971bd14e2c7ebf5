import type { FileVersionRead } from './versionReader';

/** A version caught at the moment of a watcher event, before it could be overwritten again (hash null: deleted). */
export interface Capture {
  /** Relative to the memory folder, forward slashes. */
  readonly path: string;
  readonly hash: string | null;
  /** As `FileVersionRead.text`: undefined when the read found the file as an earlier read left it. */
  readonly text: string | null | undefined;
  readonly size: number | null;
  readonly timeMs: number;
}

/** One step of one file from a version to the next (null: absent). */
export interface Transition {
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
  /** Undefined when the version was read before and its text is not held (`VersionReader.textOf`). */
  readonly afterText: string | null | undefined;
  /** The file's mtime, or when a deletion was seen. */
  readonly timeMs: number;
  /** False for a deletion noticed only now: it happened some time since the last look. */
  readonly timeKnown: boolean;
  readonly size: number | null;
}

export interface TransitionInput {
  /** Each file's newest version in the journal (null: recorded as deleted). */
  readonly latest: ReadonlyMap<string, string | null>;
  /** Versions caught by watcher events since the last look, in the order they came. */
  readonly captured: readonly Capture[];
  /** The files on disk now. */
  readonly current: ReadonlyMap<string, FileVersionRead>;
  /** Folders that exist but could not be read ('' is the memory folder itself): their files are not taken as deleted. */
  readonly unreadable: readonly string[];
  readonly now: number;
}

/**
 * Every version each file went through since history last recorded it: the versions watcher events caught,
 * then the file as it is now (or its deletion). Steps that do not change the version are dropped, and so are empty
 * versions caught on the way to a later one.
 */
export function versionTransitions({ latest, captured, current, unreadable, now }: TransitionInput): Transition[] {
  const paths = new Set([...latest.keys(), ...current.keys(), ...captured.map((c) => c.path)]);
  const list: Transition[] = [];
  for (const path of paths) {
    let before = latest.get(path) ?? null;
    const steps: (Omit<Transition, 'path' | 'before' | 'after'> & { hash: string | null })[] = [];
    for (const c of captured) {
      if (c.path === path) steps.push({ hash: c.hash, afterText: c.text, timeMs: c.timeMs, timeKnown: true, size: c.size });
    }
    const onDisk = current.get(path);
    if (onDisk) steps.push({ hash: onDisk.hash, afterText: onDisk.text, timeMs: onDisk.mtimeMs, timeKnown: true, size: onDisk.size });
    else if (!unreadable.some((prefix) => path.startsWith(prefix))) {
      // Gone: when it went is known only if the watcher saw it go.
      const seenGoing = captured.some((c) => c.path === path && c.hash === null);
      steps.push({ hash: null, afterText: null, timeMs: now, timeKnown: seenGoing, size: null });
    }
    for (const [index, { hash, ...step }] of steps.entries()) {
      if (hash === before) continue;
      // An empty file caught before a later version of it is a write caught between its truncation and its bytes
      // (a writer that does not replace the file whole), not a version: it holds nothing to keep.
      if (step.size === 0 && index < steps.length - 1) continue;
      list.push({ path, before, after: hash, ...step });
      before = hash;
    }
  }
  return list;
}
