/**
 * Names one memory folder the app can review: a project's auto memory (its `team/` sub-folder is shown
 * as scope "team") or an agent's memory folder. An agent `dir` is only accepted when the engine itself
 * discovered it, so the renderer can never point the engine at an arbitrary path.
 */
export type MemoryFolderRef =
  { readonly kind: 'project'; readonly configRoot: string; readonly slug: string } | { readonly kind: 'agent'; readonly dir: string };

/** A stable string for maps, caches and React keys. */
export function memoryFolderKey(ref: MemoryFolderRef): string {
  return ref.kind === 'project' ? `project\0${ref.configRoot}\0${ref.slug}` : `agent\0${ref.dir}`;
}

export function sameMemoryFolder(a: MemoryFolderRef | null, b: MemoryFolderRef | null): boolean {
  return a !== null && b !== null && memoryFolderKey(a) === memoryFolderKey(b);
}
