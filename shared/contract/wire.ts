import { z } from 'zod';

/** Messages on the web shell's WebSocket: requests carry an id, replies echo it, events carry none. */
export const wireRequestSchema = z.strictObject({
  id: z.number().int().nonnegative(),
  method: z.string().min(1).max(100),
  args: z.unknown(),
});

export type WireRequest = z.infer<typeof wireRequestSchema>;

/**
 * A liveness probe: the page sends one when the socket has been quiet for a while and the server echoes it at once.
 * A connection that stays silent after one (a tunnel whose far end went away) is given up and reconnected.
 */
export const wireHeartbeatSchema = z.strictObject({ heartbeat: z.number().int().nonnegative() });

export type WireHeartbeat = z.infer<typeof wireHeartbeatSchema>;

export interface WireReply {
  readonly id: number;
  readonly result: unknown;
}

export interface WireEvent {
  readonly event: string;
  readonly payload: unknown;
}
