import type { EventName, EventPayloads } from '../../shared/contract/events';
import type { EngineServices } from './engine';

export type EventSink = <E extends EventName>(event: E, payload: EventPayloads[E]) => void;

/** Forwards every engine service event to a shell's sink (a window or a socket); returns the unsubscribe. */
export function forwardEngineEvents({ home }: EngineServices, sink: EventSink): () => void {
  const disposers = [home.onDidChangeHome((snapshot) => sink('homeChanged', snapshot))];
  return () => {
    for (const dispose of disposers) dispose();
  };
}
