import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PACKAGE_NAME = 'claude-memory-manager';

/**
 * The folder holding our package.json, found by walking up from a module's folder: the same answer
 * whether the code runs from source (tsx), from out/ in a checkout, or from an installed package.
 */
export function findAppRoot(fromDir: string): string | null {
  let dir = fromDir;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return dir;
      } catch {
        // Not our manifest; keep walking up.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
