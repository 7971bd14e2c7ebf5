import type { AccessProblem } from '../../api/webSocketApi';

const EXPLANATIONS: Readonly<Record<AccessProblem, string>> = {
  missing: 'This tab was opened without the access token. The token is kept per tab, so a new tab or window needs the URL again.',
  refused: 'The server did not accept this tab’s access token. It prints a new one each time it starts, so it may have restarted.',
};

/** Shown by the web shell instead of the app when it has no token the server accepts: nothing of the home is shown. */
export function AccessPage({ problem }: { readonly problem: AccessProblem }) {
  return (
    <section className="empty-state" aria-label="Access token needed">
      <h1>Open the URL that ccmem serve printed</h1>
      <p>{EXPLANATIONS[problem]}</p>
      <p>
        In the terminal where <code>ccmem serve</code> runs, find the line <code>Open: http://…/?token=…</code> and open that URL here.
      </p>
    </section>
  );
}
