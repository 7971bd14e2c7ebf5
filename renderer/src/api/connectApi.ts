import type { Api } from '../../../shared/contract/api';
import { reportAccessProblem } from './accessStore';
import { takeAccessToken } from './webShellToken';
import { createWebSocketApi } from './webSocketApi';

declare global {
  interface Window {
    /** Present in the Electron shell, exposed by the preload. */
    readonly api?: Api;
  }
}

/** The preload's Api inside Electron; otherwise the web shell's WebSocket on the page's own origin. */
export function connectApi(): Api {
  if (window.api) return window.api;
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return createWebSocketApi({
    url: `${scheme}//${window.location.host}/ws`,
    token: takeAccessToken(window),
    onAccessProblem: reportAccessProblem,
  });
}

export const api: Api = connectApi();
