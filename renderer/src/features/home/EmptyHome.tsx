import { useHomeStore, openDemoHome } from '../../stores/homeStore';

/** Shown when no Claude Code config folder exists: say where we looked, and offer the sample home. */
export function EmptyHome() {
  const roots = useHomeStore((s) => s.home?.roots ?? []);
  const busy = useHomeStore((s) => s.busy);
  // Opening the demo switches every client of a server to it: a read-only server refuses.
  const readOnly = useHomeStore((s) => s.home?.readOnly ?? false);
  return (
    <section className="empty-state" aria-label="No Claude Code data">
      <h1>No Claude Code data found</h1>
      <p>
        Looked in{' '}
        {roots.map((r) => (
          <code key={r.path}>{r.path}</code>
        ))}
        . Claude Code creates this folder the first time you use it. Set <code>CLAUDE_CONFIG_DIR</code> if yours lives elsewhere.
      </p>
      <button type="button" className="primary" disabled={busy || readOnly} onClick={() => void openDemoHome()}>
        Open demo data
      </button>
      {readOnly ? <p className="muted">This server is read-only, so it cannot switch to the demo data.</p> : null}
      <p className="muted">
        The demo is a made-up home shipped with the app; it is copied into the app's data folder, so nothing of yours changes.
      </p>
    </section>
  );
}
