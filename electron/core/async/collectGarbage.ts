import { measureMemory } from 'node:vm';

/**
 * Has V8 collect garbage now, where background work knows it has just left a lot behind. The engine's old generation
 * is collected when it has grown by a factor of its size at the last collection, so after the first start's build
 * the catalog's, the history reconstruction's and the archive's promoted garbage was still held when the line index
 * keeper started, and the keeper's own on top of it: the process's peak was the sum. A memory measurement run
 * eagerly starts a full collection at once (Node's documented way to ask for one without `--expose-gc`); the
 * measurement itself is not wanted. It pauses the engine's thread for the collection (tens of milliseconds), so it
 * is for the few places that follow big background work, not for requests.
 */
export async function collectGarbage(): Promise<void> {
  await measureMemory({ mode: 'summary', execution: 'eager' }).catch(() => undefined);
}
