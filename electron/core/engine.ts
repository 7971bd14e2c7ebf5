import type { RequestHandlers } from '../../shared/contract/api';
import { createRequestHandlers } from './createRequestHandlers';
import { forwardEngineEvents, type EventSink } from './engineEvents';
import { HomeService, type HomeServiceOptions } from './home/HomeService';
import { startLiveHome, type LiveHome } from './liveHome';

export interface EngineOptions extends HomeServiceOptions {
  /** Follow the files as they change (the app shells); one-shot CLI commands leave it off. */
  readonly watch: boolean;
}

/** Every engine service, constructed once; handlers and event forwarding are derived from it. */
export interface EngineServices {
  readonly home: HomeService;
  readonly live: LiveHome | null;
}

export interface Engine extends EngineServices {
  readonly handlers: RequestHandlers;
  /** Sends every engine event to one shell's sink; returns the unsubscribe. */
  subscribe(sink: EventSink): () => void;
  dispose(): Promise<void>;
}

/** Builds the engine for one shell (Electron main, web server or CLI). */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  const home = new HomeService(options);
  const live = options.watch ? await startLiveHome(home) : null;
  const services: EngineServices = { home, live };
  return {
    ...services,
    handlers: createRequestHandlers(services),
    subscribe: (sink) => forwardEngineEvents(services, sink),
    async dispose() {
      await live?.dispose();
      home.dispose();
    },
  };
}
