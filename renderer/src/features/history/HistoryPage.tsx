import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { CAUSE_LABELS, CHANGE_CAUSES, type ChangeSetPage } from '../../../../shared/history/historyModel';
import type { ProjectSummary } from '../../../../shared/model/home';
import { api } from '../../api/connectApi';
import { RelativeTime } from '../../components/RelativeTime';
import { useRequest } from '../../components/useRequest';
import { BackupPanel } from './BackupPanel';
import { ChangeSetDetail } from './ChangeSetDetail';
import { ChangeSetList } from './ChangeSetList';
import { FileVersions } from './FileVersions';
import { selectChangeSet, setScope, toggleCause, useHistoryStore } from './historyStore';
import './history.css';
import { countOf } from '../../../../shared/text/plural';
import { PendingState } from '../../components/PendingState';

const PAGE_SIZE = 1000;

/** Reconstruction of what came before history started: its progress while it runs, then how far back it reaches. */
function ReconstructionLine({ status }: { readonly status: ChangeSetPage['status'] }) {
  const live = useHistoryStore((s) => s.reconstruction);
  const current = live ?? status.reconstruction;
  if (current.state === 'running') {
    const share = current.bytesTotal > 0 ? Math.round((100 * current.bytesRead) / current.bytesTotal) : 0;
    return (
      <p className="muted small" role="status" aria-label="Reconstruction">
        Reconstructing earlier history from Claude Code&apos;s transcripts… {share}% ({countOf(current.transcriptsRead, 'transcript')} read)
      </p>
    );
  }
  if (current.state === 'failed') return <p className="error small">Reconstructing earlier history failed: {current.error}</p>;
  if (!status.reconstruction.reconstructedFrom) return null;
  return (
    <p className="muted small" aria-label="Reconstruction">
      Reconstructed from what Claude Code left behind back to <RelativeTime iso={status.reconstruction.reconstructedFrom} /> ·{' '}
      {status.reconstruction.changeSetCount} earlier change sets
    </p>
  );
}

function StatusLine({ status }: { readonly status: ChangeSetPage['status'] }) {
  if (status.rebuilt)
    return (
      <p className="warning" role="status">
        History was deleted and rebuilt from the files as they were <RelativeTime iso={status.rebuiltAt} />: earlier history is gone.
      </p>
    );
  return (
    <p className="muted small">
      {status.startedAt ? (
        <>
          History starts <RelativeTime iso={status.startedAt} /> · {countOf(status.versionCount, 'version')} kept in all
        </>
      ) : (
        'Nothing recorded yet.'
      )}
    </p>
  );
}

/**
 * Memory history: every change set of this project (or of all projects), filterable by who caused it, with
 * its diff, its evidence, revert, every version of a file with restore, and backups.
 */
export function HistoryPage({ project }: { readonly project: ProjectSummary }) {
  const { revision, scope, causes, selectedId, fileView } = useHistoryStore(
    useShallow((s) => ({ revision: s.revision, scope: s.scope, causes: s.causes, selectedId: s.selectedId, fileView: s.fileView })),
  );
  const [showStart, setShowStart] = useState(false);
  const ref = { configRoot: project.configRoot, slug: project.slug };
  const key = `${scope}\0${project.configRoot}\0${project.slug}\0${causes.join(',')}\0${showStart}\0${revision}`;
  const page = useRequest(key, () =>
    api.listHistory({ project: scope === 'project' ? ref : null, causes: [...causes], includeFirstSight: showStart, limit: PAGE_SIZE }),
  );
  const changeSets = page.status === 'done' ? page.value.changeSets : [];
  const selected = changeSets.find((c) => c.id === selectedId) ?? null;
  return (
    <section aria-label="History" className="history-page">
      <header className="page-header">
        <h1>History</h1>
        <p className="muted">
          Every version of every memory file, who changed it and why. Claude Code keeps no record of its own; this one is kept in the
          app&apos;s data folder.
        </p>
        {page.status === 'done' ? <StatusLine status={page.value.status} /> : null}
        {page.status === 'done' ? <ReconstructionLine status={page.value.status} /> : null}
      </header>
      <div className="history-controls">
        <div className="segmented" role="group" aria-label="Scope">
          <button type="button" aria-pressed={scope === 'project'} onClick={() => setScope('project')}>
            This project
          </button>
          <button type="button" aria-pressed={scope === 'all'} onClick={() => setScope('all')}>
            All projects
          </button>
        </div>
        <fieldset className="cause-filter" aria-label="Causes">
          {CHANGE_CAUSES.map((cause) => (
            <label key={cause}>
              <input type="checkbox" checked={causes.includes(cause)} onChange={() => toggleCause(cause)} /> {CAUSE_LABELS[cause]}
            </label>
          ))}
        </fieldset>
        <label className="small">
          <input type="checkbox" checked={showStart} onChange={(event) => setShowStart(event.target.checked)} /> Show where history starts
        </label>
      </div>
      {page.status === 'error' ? <p className="error">{page.message}</p> : null}
      <div className="history-body">
        <div className="history-list-pane">
          {page.status === 'loading' ? <PendingState label="Reading the history" /> : null}
          {page.status === 'done' && changeSets.length === 0 ? <p className="muted">No changes recorded here yet.</p> : null}
          {changeSets.length > 0 ? (
            <ChangeSetList changeSets={changeSets} selectedId={selectedId} showFolder={scope === 'all'} onSelect={selectChangeSet} />
          ) : null}
          {page.status === 'done' && page.value.total > changeSets.length ? (
            <p className="muted small">
              Showing the newest {changeSets.length} of {page.value.total}.
            </p>
          ) : null}
        </div>
        <div className="history-detail-pane">
          {selected && fileView && selected.folder ? (
            <FileVersions folder={selected.folder} path={fileView.path} />
          ) : selected ? (
            <ChangeSetDetail changeSet={selected} />
          ) : (
            <p className="muted">Choose a change set to see what changed.</p>
          )}
        </div>
      </div>
      <BackupPanel project={project} />
    </section>
  );
}
