import type { MemoryFileContent, ReviewedMemoryFile } from '../../../../shared/memory/memoryReview';
import { MarkdownView } from '../../components/MarkdownView';

const TABS = ['Rendered', 'Raw', 'Frontmatter', 'As recalled'] as const;
export type FileTab = (typeof TABS)[number];

function FrontmatterView({ file }: { readonly file: MemoryFileContent }) {
  return (
    <div>
      <p className="muted">
        Layout: {file.variant}
        {file.frontmatterError ? ` — ${file.frontmatterError}` : ''}
      </p>
      {file.fields.length > 0 ? (
        <dl className="facts" aria-label="Frontmatter fields">
          {file.fields.map((f) => (
            <div key={`${f.nested ? 'metadata.' : ''}${f.key}`} className="fact">
              <dt>{f.nested ? `metadata.${f.key}` : f.key}</dt>
              <dd>{f.value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">No fields.</p>
      )}
      {file.frontmatterText !== null ? <pre className="raw-text">{file.frontmatterText}</pre> : null}
    </div>
  );
}

/** What recall does with the file: whether it is offered, where reading stops, and the text the model gets. */
function RecalledView({ entry, file }: { readonly entry: ReviewedMemoryFile; readonly file: MemoryFileContent }) {
  return (
    <div>
      <p>
        {entry.inScan ? 'Offered for recall' : 'Never offered for recall (older than the 200 newest files)'}. Read up to 200 lines / 4,096
        bytes:{' '}
        {entry.recall.truncated
          ? `cut after ${entry.recall.lines} of ${entry.recall.totalLines} lines (${entry.recall.reason === 'bytes' ? '4,096-byte limit' : '200-line limit'}).`
          : 'read whole.'}
      </p>
      <p className="muted">
        Manifest line: <code>{entry.manifestLine}</code>
      </p>
      {entry.freshnessNote ? (
        <p className="warning">Age note given to the model: {entry.freshnessNote}</p>
      ) : (
        <p className="muted">No age note: it is a day old or newer.</p>
      )}
      <pre className="raw-text" aria-label="As the model gets it">
        {file.recalledText}
      </pre>
    </div>
  );
}

export interface FileViewsProps {
  readonly entry: ReviewedMemoryFile;
  readonly file: MemoryFileContent;
  /** The tab shown; kept by the caller, so it stays while the file is edited and saved. */
  readonly tab: FileTab;
  readonly onTab: (tab: FileTab) => void;
  /** Follows a link in the rendered text to another file of the folder. */
  readonly onLocalLink: (target: string) => void;
}

/** One memory four ways, a tab each: rendered, raw, its frontmatter fields and what the model gets when it is recalled. */
export function FileViews({ entry, file, tab, onTab, onLocalLink }: FileViewsProps) {
  return (
    <>
      <div className="subtabs" role="tablist" aria-label="File views">
        {TABS.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={t === tab}
            className={t === tab ? 'tab active' : 'tab'}
            onClick={() => onTab(t)}
          >
            {t}
          </button>
        ))}
      </div>
      {tab === 'Rendered' ? <MarkdownView text={file.body} onLocalLink={onLocalLink} label="Rendered memory" /> : null}
      {tab === 'Raw' ? (
        <pre className="raw-text" aria-label="Raw text">
          {file.text}
        </pre>
      ) : null}
      {tab === 'Frontmatter' ? <FrontmatterView file={file} /> : null}
      {tab === 'As recalled' ? <RecalledView entry={entry} file={file} /> : null}
    </>
  );
}
