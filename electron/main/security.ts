import { shell, type App, type Session, type WebContents } from 'electron';

/**
 * The hash of the inline React Refresh preamble that @vitejs/plugin-react injects into the dev server's HTML.
 * Allowing exactly this script in development keeps `'unsafe-inline'` out of the policy even there;
 * a unit test recomputes it from the installed plugin so an upgrade that changes the preamble fails loudly.
 */
export const REACT_REFRESH_PREAMBLE_HASH = "'sha256-Z2/iFzh9VMlVkEOar1f/oSHWwQk3ve1qk/C2WdsC4Xk='";

/**
 * The renderer's Content-Security-Policy: only our own files, no remote origins, no inline or eval'd scripts.
 * Inline styles stay allowed because React's `style` props need them. With a dev server URL, its WebSocket
 * (hot reload) and the React Refresh preamble are allowed as well; packaged builds never pass one.
 */
export function buildContentSecurityPolicy(devServerUrl: string | null): string {
  const scriptSources = ["'self'"];
  const connectSources = ["'self'"];
  if (devServerUrl !== null) {
    const devServer = new URL(devServerUrl);
    scriptSources.push(REACT_REFRESH_PREAMBLE_HASH);
    connectSources.push(`${devServer.protocol === 'https:' ? 'wss:' : 'ws:'}//${devServer.host}`);
  }
  return [
    "default-src 'self'",
    `script-src ${scriptSources.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connectSources.join(' ')}`,
    "worker-src 'self'",
    "object-src 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** Sends the policy as a response header on everything the session loads, replacing any policy a dev server sent. */
export function applyContentSecurityPolicy(session: Session, policy: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    const responseHeaders: Record<string, string[]> = {};
    for (const [name, values] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') responseHeaders[name] = values;
    }
    responseHeaders['Content-Security-Policy'] = [policy];
    callback({ responseHeaders });
  });
}

/** The app needs no camera, microphone, notifications, clipboard reads, USB or anything else a page can ask for. */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}

/** Links may leave the app only for plain https pages: no other scheme, and no credentials smuggled in the URL. */
export function isAllowedExternalUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === 'https:' && parsed.hostname !== '' && parsed.username === '' && parsed.password === '';
}

/** Hands an allow-listed link to the user's browser; anything else is dropped. */
export function openExternalIfAllowed(url: string): void {
  if (isAllowedExternalUrl(url)) void shell.openExternal(url);
}

/**
 * Keeps every page on the renderer it was given: navigation, new windows and <webview> are refused.
 * A link the user clicks still opens in the browser when it passes the allow-list.
 */
export function lockDownWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => {
    event.preventDefault();
    openExternalIfAllowed(event.url);
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternalIfAllowed(url);
    return { action: 'deny' };
  });
}

/** Applies `lockDownWebContents` to every web contents the app ever creates, before any of them loads. */
export function lockDownAllWebContents(app: App): void {
  app.on('web-contents-created', (_event, contents) => lockDownWebContents(contents));
}
