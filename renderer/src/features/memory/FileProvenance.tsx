import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import {
  CAUSE_LABELS,
  type BlameLine,
  type ChangeCause,
  type FileOriginStep,
  type TranscriptPlace,
} from '../../../../shared/history/historyModel';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { SessionCatalogEntry } from '../../../../shared/model/catalog';
import { api } from '../../api/connectApi';
import { PendingState } from '../../components/PendingState';
import { RelativeTime } from '../../components/RelativeTime';
import { useRequest } from '../../components/useRequest';
import { TranscriptPlaceLink, type LinkedPlace } from '../history/TranscriptPlaceLink';
import { useHistoryStore } from '../history/historyStore';
import { loadSessionCatalog, useSessionCatalogStore } from '../sessions/sessionCatalogStore';

/** Who made a change, as the end of "Created by …". */
const WHO: Readonly<Record<ChangeCause, string>> = {
  session: 'Claude Code',
  extraction: "Claude Code's memory extraction",
  dream: 'a dream',
  'app-edit': 'this app',
  external: 'someone outside Claude Code',
};

export interface FileProvenanceProps {
  readonly folder: MemoryFolderRef;
  readonly path: string;
  /** Bumped when the file changes on disk. */
  readonly revision: number;
}

/** The sessions the catalog lists, by id; built once per listing, however many lines a blame shows. */
let indexedListing: readonly SessionCatalogEntry[] | null = null;
let sessionsById = new Map<string, SessionCatalogEntry>();
function catalogSession(sessions: readonly SessionCatalogEntry[], sessionId: string): SessionCatalogEntry | undefined {
  if (sessions !== indexedListing) {
    sessionsById = new Map(sessions.map((session) => [session.sessionId, session]));
    indexedListing = sessions;
  }
  return sessionsById.get(sessionId);
}

/**
 * Where to open the transcript for a change: its own place when history read it from a transcript. A change known
 * only by its session id (a memory file's `originSessionId`) opens that session wherever the catalog lists it, on disk
 * or archived; once the whole catalog is in and it is not there, Claude Code's cleanup took it before the archive
 * could: 'gone'. While the catalog is still coming in, the session is looked for in the folder's own project.
 */
function placeFor(
  folder: MemoryFolderRef,
  step: { readonly place: TranscriptPlace | null; readonly sessionId: string | null },
  catalog: { readonly sessions: readonly SessionCatalogEntry[]; readonly complete: boolean },
): LinkedPlace | 'gone' | null {
  if (step.place) return step.place;
  if (!step.sessionId) return null;
  const listed = catalogSession(catalog.sessions, step.sessionId);
  if (listed) return { configRoot: listed.configRoot, slug: listed.slug, sessionId: listed.sessionId, line: null, agentId: null };
  if (catalog.complete) return 'gone';
  if (folder.kind === 'project')
    return { configRoot: folder.configRoot, slug: folder.slug, sessionId: step.sessionId, line: null, agentId: null };
  return null;
}

function TurnLink({
  folder,
  step,
  label,
}: {
  readonly folder: MemoryFolderRef;
  readonly step: { readonly place: TranscriptPlace | null; readonly sessionId: string | null };
  readonly label: string;
}) {
  const catalog = useSessionCatalogStore(
    useShallow((s) => ({ sessions: s.sessions, complete: s.loaded && s.listingTotal === null && !s.building })),
  );
  const place = placeFor(folder, step, catalog);
  if (place === 'gone') return <span className="muted">(its transcript is no longer on this machine)</span>;
  if (!place) return null;
  return <TranscriptPlaceLink place={place} label={label} />;
}

function Step({ folder, step, verb }: { readonly folder: MemoryFolderRef; readonly step: FileOriginStep; readonly verb: string }) {
  return (
    <>
      {verb} by <strong>{WHO[step.cause]}</strong>
      {step.sessionId ? ` in session ${step.sessionId.slice(0, 8)}` : ''} <RelativeTime iso={step.time} />
      {step.certainty === 'inferred' ? ' (its content is not known)' : ''}
      {step.reconstructed ? ' (reconstructed)' : ''} <TurnLink folder={folder} step={step} label="open the turn" />
    </>
  );
}

function BlameTable({ folder, lines }: { readonly folder: MemoryFolderRef; readonly lines: readonly BlameLine[] }) {
  return (
    <table className="data-table blame-table" aria-label="Blame">
      <thead>
        <tr>
          <th>Line</th>
          <th>Version</th>
          <th>Who</th>
          <th>When</th>
          <th>Text</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr key={line.line} className={line.certainty === 'inferred' ? 'blame-inferred' : undefined}>
            <td className="num">{line.line}</td>
            <td>
              <code>{line.version ? line.version.slice(0, 8) : '?'}</code>
            </td>
            <td className="small">
              {line.cause ? CAUSE_LABELS[line.cause] : 'already there'}
              {line.sessionId ? ` · ${line.sessionId.slice(0, 8)}` : ''}
              {line.certainty === 'inferred' ? ' (inferred)' : ''} <TurnLink folder={folder} step={line} label="turn" />
            </td>
            <td className="small">{line.time ? <RelativeTime iso={line.time} /> : null}</td>
            <td>
              <code className="blame-text">{line.text}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Where a memory came from, from the same history every other view uses: the change that created it and
 * the newest one, each with a way into the transcript at that turn; and, on demand, each line with the
 * change that brought it in.
 */
export function FileProvenance({ folder, path, revision }: FileProvenanceProps) {
  const historyRevision = useHistoryStore((s) => s.revision);
  const [blame, setBlame] = useState(false);
  const key = `${path}\0${revision}\0${historyRevision}`;
  const origin = useRequest(key, () => api.getFileOrigin({ folder, path }));
  const lines = useRequest(blame ? `${key}\0blame` : null, () => api.blameFile({ folder, path }));
  // The catalog says whether a session named only by its id still has a transcript to open.
  useEffect(() => void loadSessionCatalog(), []);
  if (origin.status === 'loading') return <PendingState label="Looking up where this memory came from" />;
  if (origin.status === 'error') return <p className="muted small">{origin.message}</p>;
  const { created, lastChanged, versionCount } = origin.value;
  return (
    <section className="file-provenance" aria-label="Origin">
      <p className="small">
        {created ? (
          <Step folder={folder} step={created} verb="Created" />
        ) : (
          'Already there when history started; nothing left behind says who wrote it.'
        )}
        {lastChanged && lastChanged.changeSetId !== created?.changeSetId ? (
          <>
            {' · '}
            <Step folder={folder} step={lastChanged} verb="Last changed" />
          </>
        ) : null}
        {versionCount > 1 ? <span className="muted"> · {versionCount} versions</span> : null}{' '}
        <label className="blame-toggle">
          <input type="checkbox" checked={blame} onChange={(event) => setBlame(event.target.checked)} /> Blame
        </label>
      </p>
      {blame && lines.status === 'loading' ? <PendingState label="Finding the change that wrote each line" /> : null}
      {blame && lines.status === 'error' ? <p className="error small">{lines.message}</p> : null}
      {blame && lines.status === 'done' ? <BlameTable folder={folder} lines={lines.value.lines} /> : null}
    </section>
  );
}
