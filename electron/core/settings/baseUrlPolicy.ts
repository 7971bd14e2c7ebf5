import { isIP } from 'node:net';

/** Names that always mean this machine. */
function isLoopbackHostname(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

export type BaseUrlCheck = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly reason: string };

/**
 * Whether the API key may be sent to this base URL: https anywhere, plain http only to this machine (a local proxy
 * or test server), never with credentials in it. Returns the URL without a trailing slash, or why it is refused.
 */
export function checkBaseUrl(raw: string): BaseUrlCheck {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'The base URL is not a URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'The base URL must start with https://' };
  if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname)) {
    return {
      ok: false,
      reason: 'The base URL must use https:// (plain http:// only for a server on this machine): the API key travels with every request',
    };
  }
  if (url.username || url.password) return { ok: false, reason: 'Put no credentials in the base URL; use the API key field' };
  return { ok: true, url: url.toString().replace(/\/+$/, '') };
}
