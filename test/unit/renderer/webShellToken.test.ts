import { describe, expect, it } from 'vitest';
import { takeAccessToken, type TokenWindow } from '../../../renderer/src/api/webShellToken';

/** A window at `href` with its own session storage; replaceState moves the address like a browser's. */
function fakeWindow(href: string, stored: Map<string, string> = new Map()): TokenWindow & { readonly stored: Map<string, string> } {
  const location = { href };
  return {
    location,
    stored,
    history: {
      state: { kept: true },
      replaceState: (_state: unknown, _title: string, url?: string | URL | null) => {
        location.href = new URL(String(url), location.href).href;
      },
    },
    sessionStorage: { getItem: (key) => stored.get(key) ?? null, setItem: (key, value) => void stored.set(key, value) },
  };
}

describe('the web shell page keeps its token in session storage, never in the address bar', () => {
  it('moves the token from the printed URL into session storage and out of the address, keeping the rest', () => {
    const win = fakeWindow('http://127.0.0.1:7420/?token=abc_DEF-123&x=1#page=sessions');
    expect(takeAccessToken(win)).toBe('abc_DEF-123');
    expect(win.location.href).toBe('http://127.0.0.1:7420/?x=1#page=sessions');
    expect([...win.stored.values()]).toEqual(['abc_DEF-123']);
  });

  it('finds it again after a reload, and has none in a tab opened without it', () => {
    const first = fakeWindow('http://127.0.0.1:7420/?token=abc');
    takeAccessToken(first);
    const reloaded = fakeWindow('http://127.0.0.1:7420/', first.stored);
    expect(takeAccessToken(reloaded)).toBe('abc');
    expect(takeAccessToken(fakeWindow('http://127.0.0.1:7420/'))).toBeNull();
  });

  it('still works for this page when storage is turned off', () => {
    const win = fakeWindow('http://127.0.0.1:7420/?token=abc');
    const refusing: TokenWindow = {
      ...win,
      sessionStorage: {
        getItem: () => {
          throw new Error('SecurityError');
        },
        setItem: () => {
          throw new Error('SecurityError');
        },
      },
    };
    expect(takeAccessToken(refusing)).toBe('abc');
    expect(win.location.href).toBe('http://127.0.0.1:7420/');
    expect(takeAccessToken(fakeWindow('http://127.0.0.1:7420/', new Map()))).toBeNull();
  });
});
