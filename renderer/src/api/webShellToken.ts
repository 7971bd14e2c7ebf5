/** Where the page keeps the web shell's token: session storage is per origin and per tab, and survives a reload. */
const STORAGE_KEY = 'ccmem.accessToken';

/** The parts of `window` the token handling uses (a test can hand in its own). */
export interface TokenWindow {
  readonly location: { readonly href: string };
  readonly history: Pick<History, 'replaceState' | 'state'>;
  readonly sessionStorage: Pick<Storage, 'getItem' | 'setItem'>;
}

/**
 * The web shell's access token. On the first visit it is in the URL `ccmem serve` printed: it moves into session
 * storage and out of the address bar (and so out of the history and any bookmark). On a reload it comes from session
 * storage. A tab opened without it has none: the page then asks for the printed URL. The token never goes into a
 * cookie, which the browser would send to every other service on this host.
 */
export function takeAccessToken(win: TokenWindow): string | null {
  const url = new URL(win.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl !== null) {
    url.searchParams.delete('token');
    win.history.replaceState(win.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    try {
      win.sessionStorage.setItem(STORAGE_KEY, fromUrl);
    } catch {
      // Storage turned off: this page still works, a reload will ask for the URL again.
    }
    return fromUrl;
  }
  try {
    return win.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}
