import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { RequestHandlers } from '../../shared/contract/api';
import type { ShellCapability } from '../../shared/contract/capabilities';
import { dispatchRequest } from '../../shared/contract/dispatch';
import { ACCESS_CHECK_PATH, WIRE_PROTOCOL } from '../../shared/contract/webShellAccess';
import { wireRequestSchema, type WireEvent, type WireReply } from '../../shared/contract/wire';
import { fail } from '../../shared/result';
import type { EventSink } from '../core/engineEvents';
import { isAllowedHost, isAllowedOrigin, tokenSource, type HostPolicy } from './requestAuth';
import { readStaticFile } from './staticFiles';
import { MAX_BACKUP_ARCHIVE_BASE64 } from '../../shared/history/backupModel';

/**
 * The largest request is a backup import: the archive as base64 plus the rest of the message. Only a client that
 * passed the token, host and origin checks gets a socket at all.
 */
export const MAX_MESSAGE_BYTES = MAX_BACKUP_ARCHIVE_BASE64 + 1024 * 1024;

/** The web UI's policy: only our own scripts and sockets; styles inline for React; images from us or data: URLs. */
export const WEB_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface WebShellOptions {
  readonly handlers: RequestHandlers;
  /** Subscribes the server to engine events; returns the unsubscribe. */
  readonly subscribe: (sink: EventSink) => () => void;
  readonly staticDir: string;
  readonly token: string;
  readonly host: string;
  readonly port: number;
  readonly readOnly: boolean;
}

export interface ServingAddress {
  readonly host: string;
  readonly port: number;
  /** The URL to open, with the access token; print it to the user, never to a log. */
  readonly url: string;
}

/** The web shell grants no capability: anyone with the token could use it (see capabilities.ts). */
const WEB_SHELL_CAPABILITIES: ReadonlySet<ShellCapability> = new Set();

const TOKEN_REFUSAL = 'Missing or wrong access token: open the URL that `ccmem serve` printed';

/**
 * The browser shell: serves the built renderer and binds the contract to a token-guarded WebSocket. The page's
 * files hold no data and are served to any request with our Host and Origin; the WebSocket and the access check
 * demand the token, which the page keeps in session storage and offers as a subprotocol. No cookie is ever set
 * and no request is ever redirected.
 */
export class WebShellServer {
  private readonly http: Server;
  private readonly sockets: WebSocketServer;
  private unsubscribe: (() => void) | null = null;
  private policy: HostPolicy | null = null;

  constructor(private readonly options: WebShellOptions) {
    this.http = createServer((req, res) => void this.onHttp(req, res));
    this.sockets = new WebSocketServer({
      noServer: true,
      maxPayload: MAX_MESSAGE_BYTES,
      // Select the wire protocol, never echo the token back; a script with a bearer header offers none.
      handleProtocols: (offered) => (offered.has(WIRE_PROTOCOL) ? WIRE_PROTOCOL : false),
    });
    this.http.on('upgrade', (req, socket, head) => this.onUpgrade(req, socket, head));
  }

  async start(): Promise<ServingAddress> {
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.options.port, this.options.host, () => {
        this.http.off('error', reject);
        resolve();
      });
    });
    const address = this.http.address();
    const port = typeof address === 'object' && address ? address.port : this.options.port;
    this.policy = { bindHost: this.options.host, port, extraNames: [hostname().toLowerCase()] };
    this.unsubscribe = this.options.subscribe((event, payload) => this.broadcast({ event, payload }));
    const shownHost = this.options.host.includes(':') ? `[${this.options.host}]` : this.options.host;
    return { host: this.options.host, port, url: `http://${shownHost}:${port}/?token=${this.options.token}` };
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    for (const client of this.sockets.clients) client.terminate();
    await new Promise<void>((resolve) => this.sockets.close(() => resolve()));
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  /** Checks Host and Origin: returns the parsed URL, or why the request is refused. */
  private admit(req: IncomingMessage): { url: URL } | { status: number; reason: string } {
    const policy = this.policy;
    if (!policy || !isAllowedHost(req.headers.host, policy)) return { status: 403, reason: 'Host not allowed' };
    if (!isAllowedOrigin(req.headers.origin, req.headers.host)) return { status: 403, reason: 'Origin not allowed' };
    return { url: new URL(req.url ?? '/', 'http://placeholder') };
  }

  private async onHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const admitted = this.admit(req);
    if ('status' in admitted) return this.refuse(res, admitted.status, admitted.reason);
    if (req.method !== 'GET' && req.method !== 'HEAD') return this.refuse(res, 405, 'Method not allowed');
    if (admitted.url.pathname === ACCESS_CHECK_PATH) {
      if (tokenSource(req, this.options.token) !== 'header') return this.refuse(res, 401, TOKEN_REFUSAL);
      res.writeHead(204, { 'Cache-Control': 'no-store' });
      res.end();
      return;
    }
    const file = await readStaticFile(this.options.staticDir, admitted.url.pathname);
    if (!file) return this.refuse(res, 404, 'Not found');
    res.writeHead(200, {
      'Content-Type': file.contentType,
      'Content-Security-Policy': WEB_CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  private refuse(res: ServerResponse, status: number, reason: string): void {
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(`${reason}\n`);
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const admitted = this.admit(req);
    const status =
      'status' in admitted ? admitted.status : admitted.url.pathname !== '/ws' ? 404 : !tokenSource(req, this.options.token) ? 401 : 0;
    if (status !== 0) {
      const text = status === 404 ? 'Not Found' : status === 401 ? 'Unauthorized' : 'Forbidden';
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\n\r\n`);
      return;
    }
    this.sockets.handleUpgrade(req, socket, head, (client) => this.onClient(client));
  }

  private onClient(client: WebSocket): void {
    client.on('message', (data, isBinary) => void this.onMessage(client, data, isBinary));
    // ws closes the socket itself after a protocol error (an oversized frame, say); unheard, the error would crash the server.
    client.on('error', () => client.terminate());
  }

  private async onMessage(client: WebSocket, data: RawData, isBinary: boolean): Promise<void> {
    let message: unknown;
    try {
      message = isBinary ? undefined : JSON.parse(data.toString());
    } catch {
      message = undefined;
    }
    const request = wireRequestSchema.safeParse(message);
    if (!request.success) {
      const id = typeof (message as { id?: unknown } | undefined)?.id === 'number' ? (message as { id: number }).id : -1;
      this.send(client, { id, result: fail('INVALID_INPUT', 'Malformed request: expected {id, method, args}') });
      return;
    }
    const result = await dispatchRequest(this.options.handlers, request.data.method, request.data.args, {
      readOnly: this.options.readOnly,
      capabilities: WEB_SHELL_CAPABILITIES,
    });
    this.send(client, { id: request.data.id, result });
  }

  private send(client: WebSocket, message: WireReply | WireEvent): void {
    if (client.readyState === client.OPEN) client.send(JSON.stringify(message));
  }

  private broadcast(message: WireEvent): void {
    for (const client of this.sockets.clients) this.send(client, message);
  }
}
