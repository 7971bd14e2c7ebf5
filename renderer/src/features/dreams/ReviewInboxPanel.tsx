import { useShallow } from 'zustand/react/shallow';
import type { InboxEntry } from '../../../../shared/jobs/backgroundJobs';
import { PendingState } from '../../components/PendingState';
import { RelativeTime } from '../../components/RelativeTime';
import { BackgroundNotice } from './BackgroundNotice';
import { useInboxStore } from './inboxStore';
import { selectJob } from './jobsStore';
import { countOf } from '../../../../shared/text/plural';

const ORIGIN_TEXT = {
  user: 'started by you',
  schedule: 'on Claude Code’s schedule',
  'auto-extraction': 'automatic, after a session ended without one',
} as const;

const KIND_TEXT = { add: 'new', modify: 'changed', delete: 'deleted' } as const;

function InboxItem({ entry, selected }: { readonly entry: InboxEntry; readonly selected: boolean }) {
  const stale = entry.files.filter((file) => file.stale).length;
  return (
    <li className={`inbox-item${selected ? ' selected' : ''}`} aria-label={`Proposals for ${entry.label}`}>
      <div className="inbox-heading">
        <strong>{entry.kind === 'dream' ? 'Dream' : 'Extraction replay'}</strong> of <span className="break">{entry.label}</span>
        <span className="muted small">
          {' '}
          · {ORIGIN_TEXT[entry.trigger]} · <RelativeTime iso={entry.finishedAt ?? entry.createdAt} />
        </span>
        <button type="button" className="inbox-open" onClick={() => selectJob(entry.jobId)}>
          Review
        </button>
      </div>
      {entry.summary ? <p className="inbox-summary">{entry.summary.split('\n')[0]}</p> : null}
      <ul className="plain-list inbox-files" aria-label="Files touched">
        {entry.files.map((file) => (
          <li key={file.path}>
            <code>{file.path}</code> <span className="muted">({KIND_TEXT[file.kind]})</span>
            {file.stale ? (
              <span className="badge warn" title="The file changed on disk after the job read it; applying this change would be refused">
                changed on disk since
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {stale > 0 ? (
        <p className="warning small">
          {stale} of {countOf(entry.files.length, 'file')} changed since the job ran: those changes can no longer be applied.
        </p>
      ) : null}
    </li>
  );
}

/** The review inbox: every proposal set across projects and agent memories that waits for a decision. */
export function ReviewInboxPanel({ selectedId }: { readonly selectedId: string | null }) {
  const { entries, status, error } = useInboxStore(useShallow((s) => ({ entries: s.entries, status: s.status, error: s.error })));
  return (
    <section aria-label="Review inbox" className="inbox">
      <h2>Waiting for review {entries && entries.length > 0 ? <span className="badge warn">{entries.length}</span> : null}</h2>
      {status ? <BackgroundNotice status={status} /> : null}
      {entries === null && error ? <p className="error">{error}</p> : null}
      {entries === null && !error ? <PendingState label="Reading the proposals that wait for review" /> : null}
      {entries?.length === 0 ? <p className="muted">Nothing waits for review, in any project or agent memory.</p> : null}
      {entries && entries.length > 0 ? (
        <ul className="plain-list" aria-label="Proposal sets">
          {entries.map((entry) => (
            <InboxItem key={entry.jobId} entry={entry} selected={entry.jobId === selectedId} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
