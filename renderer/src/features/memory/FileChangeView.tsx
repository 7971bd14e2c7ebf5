import type { PlannedFileChange } from '../../../../shared/memory/fixes/memoryFix';
import { DiffViewer } from '../history/DiffViewer';

const CHANGE_WORDS: Readonly<Record<PlannedFileChange['change'], string>> = { add: 'New', modify: 'Changed', delete: 'Deleted' };

/** One file a fix would change: what happens to it, its line counts, and its diff when it is small enough to show. */
export function FileChangeView({ file, open }: { readonly file: PlannedFileChange; readonly open: boolean }) {
  return (
    <details className="fix-file" open={open}>
      <summary>
        <span className={`badge fix-${file.change}`}>{CHANGE_WORDS[file.change]}</span> <code>{file.path}</code>{' '}
        <span className="muted small">
          +{file.linesAdded} −{file.linesRemoved}
        </span>
      </summary>
      {file.shown ? (
        <DiffViewer before={file.before} after={file.after} layout="inline" label={`Changes to ${file.path}`} />
      ) : (
        <p className="muted small">Too large to show here with the rest; history keeps both versions once it is applied.</p>
      )}
    </details>
  );
}
