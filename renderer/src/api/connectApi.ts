import type { Api } from '../../../shared/contract/api';
import { reportAccessProblem } from './accessStore';
import { bindRetry, reportConnection, reportReconnected } from './connectionStore';
import { takeAccessToken } from './webShellToken';
import { createWebSocketApi } from './webSocketApi';

declare global {
  interface Window {
    /** Present in the Electron shell, exposed by the preload. */
    readonly api?: Api;
  }
}

/**
 * The preload's Api inside Electron (the engine runs in the same program: it cannot become unreachable); otherwise
 * the web shell's WebSocket on the page's own origin, whose connection state the page follows.
 */
export function connectApi(): Api {
  if (window.api) return window.api;
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const connection = createWebSocketApi({
    url: `${scheme}//${window.location.host}/ws`,
    token: takeAccessToken(window),
    onAccessProblem: reportAccessProblem,
    onConnectionChange: reportConnection,
    onReconnected: reportReconnected,
  });
  bindRetry(connection.retryNow);
  return connection.api;
}

export const api: Api = connectApi();
