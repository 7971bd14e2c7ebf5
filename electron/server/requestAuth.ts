import { timingSafeEqual, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { TOKEN_PROTOCOL_PREFIX } from '../../shared/contract/webShellAccess';

/** A fresh URL-safe token, printed once in the serve URL (like Jupyter's). */
export function createAccessToken(): string {
  return randomBytes(24).toString('base64url');
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The subprotocols a WebSocket handshake offers, in order. */
export function offeredProtocols(req: IncomingMessage): string[] {
  const header = req.headers['sec-websocket-protocol'];
  if (typeof header !== 'string') return [];
  return header
    .split(',')
    .map((protocol) => protocol.trim())
    .filter((protocol) => protocol !== '');
}

/**
 * Where the request carried a valid token, if anywhere: a WebSocket subprotocol (the page) or a bearer header
 * (scripts). Never a cookie, which the browser would also send to every other service on this host, and never the
 * query: the page takes the token out of its URL itself, and a URL ends up in histories and logs.
 */
export function tokenSource(req: IncomingMessage, expected: string): 'subprotocol' | 'header' | null {
  for (const protocol of offeredProtocols(req)) {
    if (protocol.startsWith(TOKEN_PROTOCOL_PREFIX) && sameToken(protocol.slice(TOKEN_PROTOCOL_PREFIX.length), expected))
      return 'subprotocol';
  }
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ') && sameToken(auth.slice(7), expected)) return 'header';
  return null;
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** Splits a Host header into hostname and port; IPv6 literals keep their brackets. */
export function parseHostHeader(header: string | undefined): { hostname: string; port: number | null } | null {
  if (!header) return null;
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(header.trim());
  if (!match) return null;
  return { hostname: match[1].toLowerCase(), port: match[2] ? Number(match[2]) : null };
}

export interface HostPolicy {
  /** The address the server was asked to bind. */
  readonly bindHost: string;
  readonly port: number;
  /** Extra names accepted when bound to every interface (the machine's hostname). */
  readonly extraNames: readonly string[];
}

/**
 * Whether a Host header names this server. Loopback names always do; a non-loopback bind also accepts
 * its own address, and a wildcard bind accepts IP literals and the machine's name. Anything else is
 * refused, which stops DNS-rebinding pages from reaching the API.
 */
export function isAllowedHost(header: string | undefined, policy: HostPolicy): boolean {
  const parsed = parseHostHeader(header);
  if (!parsed || parsed.port !== policy.port) return false;
  const { hostname } = parsed;
  if (isLoopbackHost(hostname)) return true;
  if (hostname === policy.bindHost.toLowerCase()) return true;
  if (isWildcardHost(policy.bindHost)) {
    const bare = hostname.replace(/^\[|\]$/g, '');
    return isIP(bare) !== 0 || policy.extraNames.includes(hostname);
  }
  return false;
}

/** Browsers send Origin on cross-site requests and on every WebSocket: it must be this very server. */
export function isAllowedOrigin(origin: string | undefined, hostHeader: string | undefined): boolean {
  if (origin === undefined) return true;
  return origin === `http://${hostHeader}`;
}
