import { WarningList } from '../../components/WarningList';
import { AppearanceSettings } from '../../shell/AppearanceSettings';
import { refreshHome, useHomeStore } from '../../stores/homeStore';
import { ArchiveSettingsSection } from './ArchiveSettingsSection';
import { BackgroundJobsSection } from './BackgroundJobsSection';
import { LlmSettingsSection } from './LlmSettingsSection';
import { MiddleTruncate } from '../../components/MiddleTruncate';

const ROOT_SOURCES = { CLAUDE_CONFIG_DIR: 'from CLAUDE_CONFIG_DIR', default: 'default', demo: 'demo data' } as const;

/** Where the app reads from and keeps its own data. */
export function SettingsPage() {
  const home = useHomeStore((s) => s.home);
  const busy = useHomeStore((s) => s.busy);
  if (!home) return null;
  return (
    <section aria-label="Settings">
      <header className="page-header">
        <h1>Settings</h1>
      </header>
      <h2>Claude Code folders</h2>
      <ul className="plain-list" aria-label="Config roots">
        {home.roots.map((root) => (
          <li key={root.path}>
            <MiddleTruncate code text={root.path} /> <span className="muted">({ROOT_SOURCES[root.source]})</span>
            {root.exists ? null : <span className="badge warn">missing</span>}
            <WarningList warnings={root.warnings} />
          </li>
        ))}
      </ul>
      <dl className="facts">
        <dt>App data</dt>
        <dd>
          <MiddleTruncate code text={home.dataDir} />
        </dd>
        <dt>Shell</dt>
        <dd>{home.shell === 'web' ? 'browser (ccmem serve)' : home.shell}</dd>
        <dt>Mode</dt>
        <dd>{home.readOnly ? 'read-only' : 'read and write'}</dd>
      </dl>
      <button type="button" disabled={busy} onClick={() => void refreshHome()}>
        Rescan
      </button>
      <ArchiveSettingsSection readOnly={home.readOnly} />
      <AppearanceSettings />
      <LlmSettingsSection readOnly={home.readOnly} />
      <BackgroundJobsSection readOnly={home.readOnly} />
    </section>
  );
}
