import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { App, HandlerDetails, Session, WebContents, WindowOpenHandlerResponse } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const electronMock = vi.hoisted(() => ({ openExternal: vi.fn(() => Promise.resolve()) }));

vi.mock('electron', () => ({ shell: { openExternal: electronMock.openExternal } }));

const {
  REACT_REFRESH_PREAMBLE_HASH,
  applyContentSecurityPolicy,
  buildContentSecurityPolicy,
  denyAllPermissions,
  isAllowedExternalUrl,
  lockDownAllWebContents,
  lockDownWebContents,
} = await import('../../../electron/main/security');

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

describe('buildContentSecurityPolicy', () => {
  const packaged = buildContentSecurityPolicy(null);
  const dev = buildContentSecurityPolicy('http://localhost:5173');

  it('allows only our own files: no remote origins, no inline or eval-ed scripts', () => {
    const parsed = directives(packaged);
    expect(parsed.get('default-src')).toEqual(["'self'"]);
    expect(parsed.get('script-src')).toEqual(["'self'"]);
    expect(parsed.get('connect-src')).toEqual(["'self'"]);
    expect(parsed.get('img-src')).toEqual(["'self'", 'data:']);
    expect(parsed.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(parsed.get('object-src')).toEqual(["'none'"]);
    expect(parsed.get('frame-src')).toEqual(["'none'"]);
    expect(packaged).not.toMatch(/unsafe-eval|https?:|wss?:|\*/);
  });

  it('adds only the dev server WebSocket and the React Refresh preamble in development', () => {
    const parsed = directives(dev);
    expect(parsed.get('connect-src')).toEqual(["'self'", 'ws://localhost:5173']);
    expect(parsed.get('script-src')).toEqual(["'self'", REACT_REFRESH_PREAMBLE_HASH]);
    expect(dev).not.toMatch(/unsafe-eval/);
    expect(parsed.get('script-src')).not.toContain("'unsafe-inline'");
  });

  it('allows exactly the preamble the installed React plugin injects', () => {
    const preamble = react.preambleCode.replace('__BASE__', '/');
    expect(REACT_REFRESH_PREAMBLE_HASH).toBe(`'sha256-${createHash('sha256').update(preamble).digest('base64')}'`);
  });
});

describe('applyContentSecurityPolicy', () => {
  it('replaces whatever policy a response carried with ours and keeps the other headers', () => {
    let listener: ((details: object, callback: (response: { responseHeaders: Record<string, string[]> }) => void) => void) | undefined;
    const session = { webRequest: { onHeadersReceived: vi.fn((fn: typeof listener) => (listener = fn)) } } as unknown as Session;
    applyContentSecurityPolicy(session, "default-src 'self'");
    const callback = vi.fn();
    listener?.({ responseHeaders: { 'content-security-policy': ['default-src *'], 'Content-Type': ['text/html'] } }, callback);
    expect(callback).toHaveBeenCalledWith({
      responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': ["default-src 'self'"] },
    });
  });
});

describe('denyAllPermissions', () => {
  it('denies every permission request, permission check and device permission', () => {
    const session = {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      setDevicePermissionHandler: vi.fn(),
    };
    denyAllPermissions(session as unknown as Session);
    const requestHandler = session.setPermissionRequestHandler.mock.calls[0][0] as (
      c: unknown,
      p: string,
      cb: (ok: boolean) => void,
    ) => void;
    for (const permission of ['media', 'notifications', 'clipboard-read', 'openExternal', 'geolocation']) {
      const callback = vi.fn();
      requestHandler({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
    }
    const checkHandler = session.setPermissionCheckHandler.mock.calls[0][0] as (c: unknown, p: string) => boolean;
    expect(checkHandler({}, 'media')).toBe(false);
    expect(checkHandler(null, 'clipboard-sanitized-write')).toBe(false);
    const deviceHandler = session.setDevicePermissionHandler.mock.calls[0][0] as (details: unknown) => boolean;
    expect(deviceHandler({ deviceType: 'usb' })).toBe(false);
  });
});

describe('isAllowedExternalUrl', () => {
  it('allows plain https links only', () => {
    expect(isAllowedExternalUrl('https://docs.anthropic.com/en/docs/claude-code/memory')).toBe(true);
    for (const url of [
      'http://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,hi',
      'smb://host/share',
      'https://user:secret@example.com',
      'not a url',
    ]) {
      expect(isAllowedExternalUrl(url), url).toBe(false);
    }
  });
});

class FakeWebContents extends EventEmitter {
  openHandler: ((details: HandlerDetails) => WindowOpenHandlerResponse) | undefined;
  setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse): void {
    this.openHandler = handler;
  }
}

function preventable(extra: object = {}): { preventDefault: () => void; defaultPrevented: boolean } {
  const event = {
    ...extra,
    defaultPrevented: false,
    preventDefault: () => {
      event.defaultPrevented = true;
    },
  };
  return event;
}

describe('lockDownWebContents', () => {
  let contents: FakeWebContents;

  beforeEach(() => {
    electronMock.openExternal.mockClear();
    contents = new FakeWebContents();
    lockDownWebContents(contents as unknown as WebContents);
  });

  it('prevents every navigation, sending only allow-listed links to the browser', () => {
    for (const url of ['https://example.com/', 'http://example.com/', 'file:///etc/passwd']) {
      const event = preventable({ url });
      contents.emit('will-navigate', event);
      expect(event.defaultPrevented, url).toBe(true);
    }
    expect(electronMock.openExternal.mock.calls).toEqual([['https://example.com/']]);
  });

  it('denies window.open, opening https links externally and refusing http, file and javascript URLs', () => {
    for (const url of ['https://example.com/docs', 'http://example.com', 'file:///etc/passwd', 'javascript:alert(1)']) {
      expect(contents.openHandler?.({ url } as HandlerDetails)).toEqual({ action: 'deny' });
    }
    expect(electronMock.openExternal.mock.calls).toEqual([['https://example.com/docs']]);
  });

  it('refuses to attach a webview', () => {
    const event = preventable();
    contents.emit('will-attach-webview', event, {}, {});
    expect(event.defaultPrevented).toBe(true);
  });
});

describe('lockDownAllWebContents', () => {
  it('locks down every web contents the app creates', () => {
    const app = new EventEmitter();
    lockDownAllWebContents(app as unknown as App);
    const contents = new FakeWebContents();
    app.emit('web-contents-created', {}, contents);
    expect(contents.openHandler?.({ url: 'https://example.com' } as HandlerDetails)).toEqual({ action: 'deny' });
    const event = preventable({ url: 'https://example.com' });
    contents.emit('will-navigate', event);
    expect(event.defaultPrevented).toBe(true);
  });
});
