import { useHistoryStore } from './historyStore';

/** "2 dreams to review" beside a project in the sidebar, when history found dreams nobody has kept or reverted. */
export function UnreviewedDreamsBadge({ configRoot, slug }: { readonly configRoot: string; readonly slug: string }) {
  const count = useHistoryStore((s) => s.unreviewed.find((u) => u.configRoot === configRoot && u.slug === slug)?.count ?? 0);
  if (count === 0) return null;
  return (
    <span className="badge warn" title="Dreams changed this memory; review them on the Dreams page">
      {count} {count === 1 ? 'dream' : 'dreams'} to review
    </span>
  );
}
