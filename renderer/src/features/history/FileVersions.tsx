import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { FileVersion, RollbackPlan } from '../../../../shared/history/historyModel';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import { api } from '../../api/connectApi';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RelativeTime } from '../../components/RelativeTime';
import { useMutation } from '../../components/useMutation';
import { useRequest } from '../../components/useRequest';
import { useHomeStore } from '../../stores/homeStore';
import { LayoutToggle } from './ChangeSetDetail';
import { DiffViewer } from './DiffViewer';
import { CauseBadge } from './EvidenceView';
import { closeFileVersions, useHistoryStore } from './historyStore';
import { restoreVersion } from './historyWrites';
import { RollbackDialog } from './RollbackDialog';
import { PendingState } from '../../components/PendingState';

export interface FileVersionsProps {
  readonly folder: MemoryFolderRef;
  readonly path: string;
}

/** A version as a choice: its hash, or null for "the file did not exist". */
type Choice = string | null;

function label(version: FileVersion): string {
  if (version.certainty === 'inferred') return 'not known';
  return version.after === null ? 'deleted' : version.after.slice(0, 10);
}

function ComparePair({
  folder,
  path,
  from,
  to,
}: {
  readonly folder: MemoryFolderRef;
  readonly path: string;
  readonly from: Choice;
  readonly to: Choice;
}) {
  const { revision, layout } = useHistoryStore(useShallow((s) => ({ revision: s.revision, layout: s.layout })));
  const pair = useRequest(`${path}\0${from}\0${to}\0${revision}`, () => api.readVersionPair({ folder, path, before: from, after: to }));
  if (pair.status === 'loading') return <PendingState label="Reading both versions" />;
  if (pair.status === 'error') return <p className="error">{pair.message}</p>;
  if (pair.value.binary) return <p className="muted">Not shown: binary or too large to compare.</p>;
  return (
    <DiffViewer before={pair.value.beforeText} after={pair.value.afterText} layout={layout} label={`Diff of ${path} between versions`} />
  );
}

/**
 * Every recorded version of one memory file, newest first: pick any two to compare, and "Restore this
 * version" for any of them (refused if the file changed since the newest version shown here).
 */
export function FileVersions({ folder, path }: FileVersionsProps) {
  const revision = useHistoryStore((s) => s.revision);
  const readOnly = useHomeStore((s) => s.home?.readOnly ?? true);
  const versions = useRequest(`${path}\0${revision}`, () => api.listFileVersions({ folder, path }));
  const [choice, setChoice] = useState<{ from: Choice; to: Choice } | null>(null);
  const [pending, setPending] = useState<{ plan: RollbackPlan; version: string } | null>(null);
  const planning = useMutation();
  if (versions.status === 'loading') return <PendingState label="Reading the versions of this file" />;
  if (versions.status === 'error') return <p className="error">{versions.message}</p>;
  const list = versions.value;
  const newest = list[list.length - 1];
  const latest = newest?.after ?? null;
  const previous = newest?.before ?? null;
  const { from, to } = choice ?? { from: previous, to: latest };

  const askRestore = async (version: string) => {
    const plan = await planning.run(() => api.planRestore({ folder, path, version, expected: latest }));
    if (plan.ok) setPending({ plan: plan.value, version });
  };

  return (
    <section className="file-versions" aria-label={`Versions of ${path}`}>
      <header className="change-set-head">
        <h2>
          Versions of <code>{path}</code>
        </h2>
        <div className="actions">
          <button type="button" onClick={closeFileVersions}>
            Back to the change set
          </button>
          <LayoutToggle />
        </div>
      </header>
      <ErrorAlert error={planning.error} />
      {pending ? (
        <RollbackDialog
          title={`Restore ${path} to version ${pending.version.slice(0, 10)}`}
          plan={pending.plan}
          run={() => restoreVersion({ folder, path, version: pending.version, expected: latest })}
          onCancel={() => setPending(null)}
          onDone={() => {
            setPending(null);
            setChoice(null);
          }}
        />
      ) : null}
      <div className="table-scroll">
        <table className="data-table versions-table" aria-label="Versions">
          <thead>
            <tr>
              <th>Compare from</th>
              <th>to</th>
              <th>When</th>
              <th>Who</th>
              <th>Version</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {[...list].reverse().map((version, index) => (
              <tr key={`${version.changeSetId}\0${index}`} className={version.after === to ? 'selected-row' : undefined}>
                <td>
                  {version.certainty === 'exact' ? (
                    <input
                      type="radio"
                      name="compare-from"
                      aria-label={`Compare from ${label(version)}`}
                      checked={from === version.after}
                      onChange={() => setChoice({ from: version.after, to })}
                    />
                  ) : null}
                </td>
                <td>
                  {version.certainty === 'exact' ? (
                    <input
                      type="radio"
                      name="compare-to"
                      aria-label={`Compare to ${label(version)}`}
                      checked={to === version.after}
                      onChange={() => setChoice({ from, to: version.after })}
                    />
                  ) : null}
                </td>
                <td>
                  <RelativeTime iso={version.time} />
                </td>
                <td>
                  <CauseBadge cause={version.cause} /> <span className="small">{version.firstSight ? 'first seen' : version.summary}</span>
                  {version.reconstructed ? <span className="badge muted-badge">reconstructed</span> : null}
                  {version.gap ? <div className="muted small gap-note">{version.gap}</div> : null}
                </td>
                <td>
                  <code>{label(version)}</code>
                  {version.after === latest && index === 0 ? <span className="badge muted-badge">current</span> : null}
                </td>
                <td>
                  {version.certainty === 'exact' && version.after !== null && version.after !== latest ? (
                    <button type="button" disabled={readOnly} onClick={() => void askRestore(version.after as string)}>
                      Restore this version
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ComparePair folder={folder} path={path} from={from} to={to} />
    </section>
  );
}
