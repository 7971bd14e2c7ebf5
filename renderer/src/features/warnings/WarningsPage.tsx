import { WARNING_INFO } from '../../../../shared/model/warningInfo';
import type { ItemWarning, WarningCode } from '../../../../shared/model/warnings';
import type { HomeSnapshot, ProjectSummary } from '../../../../shared/model/home';
import './warnings.css';

function WarningGroup({ code, warnings }: { readonly code: WarningCode; readonly warnings: readonly ItemWarning[] }) {
  const info = WARNING_INFO[code];
  return (
    <section className="warning-group" aria-label={info.label}>
      <h3>
        <span className="badge warn">{code}</span> {info.label} ({warnings.length})
      </h3>
      <p>{info.explanation}</p>
      <p>
        <strong>Fix:</strong> {info.fix}
      </p>
      <ul className="plain-list warning-items">
        {warnings.map((warning, index) => (
          <li key={`${warning.path ?? ''}:${index}`}>
            {warning.message}
            {warning.path ? (
              <>
                {' '}
                <code className="path">{warning.path}</code>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function grouped(warnings: readonly ItemWarning[]): [WarningCode, ItemWarning[]][] {
  const groups = new Map<WarningCode, ItemWarning[]>();
  for (const warning of warnings) groups.set(warning.code, [...(groups.get(warning.code) ?? []), warning]);
  return [...groups];
}

/** Every warning of a project, and of the home it is in, grouped by kind: what each means and how to fix it. */
export function WarningsPage({ project, home }: { readonly project: ProjectSummary | null; readonly home: HomeSnapshot }) {
  const homeWarnings = [...home.warnings, ...home.roots.flatMap((root) => root.warnings)];
  return (
    <section aria-label="Warnings" className="warnings-page">
      <header className="page-header">
        <h1>Warnings</h1>
        <p className="muted">Problems found on single items. Each is left out or left alone, and everything else still loads.</p>
      </header>
      {project ? (
        <>
          <h2>{project.displayName}</h2>
          {project.warnings.length === 0 ? <p className="muted">No warnings for this project.</p> : null}
          {grouped(project.warnings).map(([code, warnings]) => (
            <WarningGroup key={code} code={code} warnings={warnings} />
          ))}
        </>
      ) : (
        <p className="muted">Choose a project in the sidebar.</p>
      )}
      {homeWarnings.length > 0 ? (
        <>
          <h2>The whole home</h2>
          {grouped(homeWarnings).map(([code, warnings]) => (
            <WarningGroup key={code} code={code} warnings={warnings} />
          ))}
        </>
      ) : null}
    </section>
  );
}
