import { z } from 'zod';
import type { AgentMemorySummary } from '../model/agents';
import type { HomeSnapshot } from '../model/home';
import type { MemoryFolderListing } from '../model/memory';
import type { SessionSummary } from '../model/session';
import type { requestNames } from './channels';

/** Slugs are single folder names under `projects/`: no separators, no dot segments, no NUL. */
const slugSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((s) => !/[/\\\0]/.test(s) && s !== '.' && s !== '..', 'must be a single folder name');

export const projectRefSchema = z.strictObject({
  configRoot: z.string().min(1).max(4096),
  slug: slugSchema,
});

const noArgs = z.strictObject({});

/**
 * Every request the renderer can make, with the schema its argument must pass at the boundary.
 * `mutates` marks requests that change something on disk; a read-only web shell refuses them.
 */
export const requestSchemas = {
  getHome: { args: noArgs, mutates: false },
  refreshHome: { args: noArgs, mutates: false },
  openDemoHome: { args: noArgs, mutates: false },
  listSessions: { args: projectRefSchema, mutates: false },
  listMemoryFiles: { args: projectRefSchema, mutates: false },
  listAgentMemories: { args: noArgs, mutates: false },
  rendererReady: { args: noArgs, mutates: false },
} as const;

export type RequestName = keyof typeof requestSchemas;

type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type AssertTrue<T extends true> = T;

/** Every channel has a schema and every schema a channel; a mismatch fails to compile. */
export type ChannelListMatchesSchemas = AssertTrue<SameKeys<RequestName, (typeof requestNames)[number]>>;

export type RequestArgs<K extends RequestName> = z.infer<(typeof requestSchemas)[K]['args']>;

/** The result type of every request; keys must match `requestSchemas`. */
export interface RequestResults {
  getHome: HomeSnapshot;
  refreshHome: HomeSnapshot;
  openDemoHome: HomeSnapshot;
  listSessions: readonly SessionSummary[];
  listMemoryFiles: MemoryFolderListing;
  listAgentMemories: readonly AgentMemorySummary[];
  rendererReady: null;
}
