import { promises as fs } from 'node:fs';
import { replaceFileAtomically } from '../fs/replaceFileAtomically';

/** The newest this many sessions are remembered; older ones ended long before anything could queue them again. */
const MAX_REMEMBERED = 10_000;

/**
 * The sessions the automatic extraction has already looked at (replayed, or found with an extraction of
 * their own), kept in the app data folder so a restart does not replay a session twice.
 */
export class ExtractionLedger {
  private keys: string[] | null = null;
  private set = new Set<string>();

  constructor(private readonly path: string) {}

  async load(): Promise<void> {
    if (this.keys) return;
    let keys: string[] = [];
    try {
      const parsed: unknown = JSON.parse(await fs.readFile(this.path, 'utf8'));
      if (Array.isArray(parsed)) keys = parsed.filter((key): key is string => typeof key === 'string').slice(-MAX_REMEMBERED);
    } catch {
      // Missing or damaged: sessions are looked at again, and one that has an extraction by then is skipped.
    }
    this.keys = keys;
    this.set = new Set(keys);
  }

  /** Whether the session was already looked at; false until `load` finished. */
  has(key: string): boolean {
    return this.set.has(key);
  }

  async remember(key: string): Promise<void> {
    await this.load();
    if (this.set.has(key) || !this.keys) return;
    this.keys.push(key);
    this.set.add(key);
    if (this.keys.length > MAX_REMEMBERED) this.set.delete(this.keys.shift() as string);
    await replaceFileAtomically(this.path, JSON.stringify(this.keys));
  }
}
