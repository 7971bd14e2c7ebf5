import { useState } from 'react';
import type { ImportPreview } from '../../../../shared/history/backupModel';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { ProjectSummary } from '../../../../shared/model/home';
import { api } from '../../api/connectApi';
import { useHomeStore } from '../../stores/homeStore';
import { DiffViewer } from './DiffViewer';
import { useHistoryStore } from './historyStore';
import { importBackup } from './historyWrites';
import { countOf } from '../../../../shared/text/plural';
import { useMutation } from '../../components/useMutation';

function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

function download(fileName: string, base64: string): void {
  const url = URL.createObjectURL(new Blob([base64ToBytes(base64)], { type: 'application/gzip' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function projectFolder(project: ProjectSummary): MemoryFolderRef {
  return { kind: 'project', configRoot: project.configRoot, slug: project.slug };
}

/**
 * Backups of a project's memory: export it as it is now or as it was at a chosen time (an archive with its
 * history manifest), and import an archive into a chosen memory folder after seeing what it would change.
 */
export function BackupPanel({ project }: { readonly project: ProjectSummary }) {
  const projects = useHomeStore((s) => s.home?.projects ?? []);
  const readOnly = useHomeStore((s) => s.home?.readOnly ?? true);
  const layout = useHistoryStore((s) => s.layout);
  const [asOf, setAsOf] = useState('');
  // Export, preview and import share the one line that says how the last of them went.
  const acting = useMutation();
  const [archive, setArchive] = useState<{ name: string; base64: string } | null>(null);
  const [targetKey, setTargetKey] = useState(`${project.configRoot}\0${project.slug}`);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const target = projects.find((p) => `${p.configRoot}\0${p.slug}` === targetKey) ?? project;

  const exportNow = async () => {
    const when = asOf ? new Date(asOf).toISOString() : null;
    const result = await acting.run(() => api.exportMemoryBackup({ folder: projectFolder(project), asOf: when }), {
      done: (backup) => `Exported ${countOf(backup.fileCount, 'file')} as of ${new Date(backup.asOf).toLocaleString()}.`,
    });
    if (result.ok) download(result.value.fileName, result.value.base64);
  };

  const choose = async (file: File | undefined) => {
    setPreview(null);
    acting.clear();
    if (!file) return setArchive(null);
    setArchive({ name: file.name, base64: bytesToBase64(new Uint8Array(await file.arrayBuffer())) });
  };

  const runPreview = async () => {
    if (!archive) return;
    const result = await acting.run(() => api.previewMemoryImport({ folder: projectFolder(target), archive: archive.base64 }));
    if (result.ok) setPreview(result.value);
  };

  const runImport = async () => {
    if (!archive || !preview) return;
    const expected = Object.fromEntries(
      preview.files.filter((f) => f.status === 'new' || f.status === 'changed').map((f) => [f.path, f.current]),
    );
    const result = await acting.run(() => importBackup({ folder: projectFolder(target), archive: archive.base64, expected }), {
      done: ({ written }) => (written.length === 0 ? 'Nothing needed importing.' : `Imported ${countOf(written.length, 'file')}.`),
    });
    if (result.ok) setPreview(null);
  };

  const writable = preview?.files.filter((f) => f.status === 'new' || f.status === 'changed') ?? [];
  return (
    <section className="backup-panel" aria-label="Backup">
      <h2>Backup</h2>
      <div className="actions">
        <label className="field-inline">
          As of <input type="datetime-local" aria-label="Backup as of" value={asOf} onChange={(event) => setAsOf(event.target.value)} />
        </label>
        <button type="button" onClick={() => void exportNow()}>
          {asOf ? 'Export as it was then' : 'Export now'}
        </button>
      </div>
      <div className="actions">
        <label className="field-inline">
          Archive{' '}
          <input
            type="file"
            accept=".tar.gz,.tgz,.tar"
            aria-label="Backup archive"
            onChange={(event) => void choose(event.target.files?.[0])}
          />
        </label>
        <label className="field-inline">
          Into{' '}
          <select aria-label="Import into" value={targetKey} onChange={(event) => (setTargetKey(event.target.value), setPreview(null))}>
            {projects.map((p) => (
              <option key={`${p.configRoot}\0${p.slug}`} value={`${p.configRoot}\0${p.slug}`}>
                {p.displayName}
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={!archive} onClick={() => void runPreview()}>
          Preview import
        </button>
      </div>
      {acting.error || acting.notice ? <p role="status">{acting.error ?? acting.notice}</p> : null}
      {preview ? (
        <div className="dialog" aria-label="Import preview">
          <h3>
            Import {archive?.name} into {target.displayName}
          </h3>
          {preview.manifest ? (
            <p className="muted small">
              From {preview.manifest.source.label}, as of {new Date(preview.manifest.asOf).toLocaleString()}.
            </p>
          ) : (
            <p className="muted small">The archive has no history manifest.</p>
          )}
          <ul className="plain-list">
            {preview.files.map((file) => (
              <li key={file.path}>
                <code>{file.path}</code> <span className={`badge import-${file.status}`}>{file.status}</span>
                {file.reason ? <span className="muted small"> {file.reason}</span> : null}
                {file.status === 'new' || file.status === 'changed' ? (
                  <DiffViewer before={file.currentText} after={file.archivedText} layout={layout} label={`Import diff of ${file.path}`} />
                ) : null}
              </li>
            ))}
          </ul>
          {preview.untouched.length > 0 ? <p className="muted small">Left as they are: {preview.untouched.join(', ')}</p> : null}
          <div className="dialog-buttons">
            <button type="button" className="primary" disabled={readOnly || writable.length === 0} onClick={() => void runImport()}>
              Import {countOf(writable.length, 'file')}
            </button>
            <button type="button" onClick={() => setPreview(null)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
