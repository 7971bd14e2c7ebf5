import { navigate } from '../../stores/navigationStore';
import { useInboxStore } from '../dreams/inboxStore';

/** The review inbox's count at the top of the sidebar; it opens the Dreams page, where the inbox is. */
export function InboxCount() {
  const count = useInboxStore((s) => s.entries?.length ?? 0);
  return (
    <button
      type="button"
      className="inbox-count"
      onClick={() => navigate({ page: 'dreams' })}
      aria-label={`Review inbox: ${count} waiting`}
    >
      Review inbox {count > 0 ? <span className="badge warn">{count}</span> : <span className="muted">(empty)</span>}
    </button>
  );
}

/** "2 proposals to review" beside a project whose memory has proposal sets waiting. */
export function PendingProposalsBadge({ configRoot, slug }: { readonly configRoot: string; readonly slug: string }) {
  const count = useInboxStore(
    (s) =>
      s.entries?.filter((entry) => entry.target.kind === 'project' && entry.target.configRoot === configRoot && entry.target.slug === slug)
        .length ?? 0,
  );
  if (count === 0) return null;
  return (
    <span className="badge warn" title="Proposals for this memory wait on the Dreams page">
      {count} to review
    </span>
  );
}
