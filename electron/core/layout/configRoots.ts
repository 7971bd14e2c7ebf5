import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ConfigRootSource } from '../../../shared/model/home';

export interface ConfigRootSpec {
  readonly path: string;
  readonly source: ConfigRootSource;
}

/** The config roots to read: `CLAUDE_CONFIG_DIR` (comma-separated list allowed), else `~/.claude`. */
export function configRootsFromEnv(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): ConfigRootSpec[] {
  const raw = env.CLAUDE_CONFIG_DIR?.trim();
  if (raw) {
    const seen = new Set<string>();
    const roots: ConfigRootSpec[] = [];
    for (const part of raw.split(',')) {
      const trimmed = part.trim();
      if (!trimmed) continue;
      const path = resolve(trimmed.startsWith('~/') ? join(home, trimmed.slice(2)) : trimmed).normalize('NFC');
      if (seen.has(path)) continue;
      seen.add(path);
      roots.push({ path, source: 'CLAUDE_CONFIG_DIR' });
    }
    if (roots.length > 0) return roots;
  }
  return [{ path: join(home, '.claude').normalize('NFC'), source: 'default' }];
}
