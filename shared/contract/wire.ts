import { z } from 'zod';

/** Messages on the web shell's WebSocket: requests carry an id, replies echo it, events carry none. */
export const wireRequestSchema = z.strictObject({
  id: z.number().int().nonnegative(),
  method: z.string().min(1).max(100),
  args: z.unknown(),
});

export type WireRequest = z.infer<typeof wireRequestSchema>;

export interface WireReply {
  readonly id: number;
  readonly result: unknown;
}

export interface WireEvent {
  readonly event: string;
  readonly payload: unknown;
}
