import type { HomeSnapshot } from '../model/home';

/** Every event the engine pushes to the renderer, with its payload type. */
export interface EventPayloads {
  homeChanged: HomeSnapshot;
}

export type EventName = keyof EventPayloads;

/** Runtime list of event names; `satisfies` keeps it in step with `EventPayloads`. */
export const eventNames = ['homeChanged'] as const satisfies readonly EventName[];

/** The name of a subscriber method on the renderer's Api: `homeChanged` → `onHomeChanged`. */
export type SubscriberName<E extends EventName> = `on${Capitalize<E>}`;

export function subscriberName<E extends EventName>(event: E): SubscriberName<E> {
  return `on${event.charAt(0).toUpperCase()}${event.slice(1)}` as SubscriberName<E>;
}
