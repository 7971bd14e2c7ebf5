import { mkdirSync } from 'node:fs';

/** Creates folders once: a recursive `mkdir` per written file costs more than the file itself on some file systems. */
export class FolderCache {
  private readonly made = new Set<string>();

  ensure(dir: string): string {
    if (!this.made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.made.add(dir);
    }
    return dir;
  }
}
