import { z } from 'zod';
import { MAX_CATALOG_PAGE } from '../model/catalog';
import { MAX_SEARCH_LIMIT, MAX_SEARCH_QUERY_LENGTH, SEARCH_HIT_KINDS } from '../model/search';

/** A project folder name under `projects/`: one name, no separators, no dot segments, no NUL. */
const slugSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((s) => !/[/\\\0]/.test(s) && s !== '.' && s !== '..', 'must be a single folder name');

/** Requests of the session catalog and of search; spread into the contract's `requestSchemas`. */
export const catalogRequestSchemas = {
  /** The cached catalog at once (optionally one config root or project); a background refresh follows. */
  getSessionCatalog: {
    args: z
      .strictObject({
        configRoot: z.string().min(1).max(4096).optional(),
        slug: slugSchema.optional(),
        /** At most this many sessions: a page. Without it, the whole listing. */
        limit: z.number().int().min(1).max(MAX_CATALOG_PAGE).optional(),
        /** A later page of the listing a first page named (its `snapshot`), from this position. */
        snapshot: z.string().min(1).max(64).optional(),
        offset: z.number().int().min(0).optional(),
      })
      .refine((args) => (args.snapshot === undefined) === (args.offset === undefined), 'snapshot and offset go together'),
    mutates: false,
  },
  refreshSessionCatalog: { args: z.strictObject({}), mutates: false },
  cancelCatalogBuild: { args: z.strictObject({}), mutates: true },
  /** Starts a search over every transcript and memory file; hits arrive as `searchHits` events. */
  startSearch: {
    args: z.strictObject({
      query: z
        .string()
        .min(1)
        .max(MAX_SEARCH_QUERY_LENGTH)
        .refine((q) => q.trim() !== '', 'must not be blank'),
      limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional(),
      scope: z
        .strictObject({
          projects: z
            .array(z.strictObject({ configRoot: z.string().min(1).max(4096), slug: slugSchema }))
            .max(1000)
            .readonly()
            .nullable(),
          kinds: z.array(z.enum(SEARCH_HIT_KINDS)).max(SEARCH_HIT_KINDS.length).readonly().nullable(),
          changedAfter: z.iso.datetime().nullable(),
          changedBefore: z.iso.datetime().nullable(),
        })
        .optional(),
      /** Also find the lines Claude Code 2.1.3xx writes to record its API requests (left out by default). */
      includeRequestRecords: z.boolean().optional(),
    }),
    mutates: false,
  },
  cancelSearch: { args: z.strictObject({ searchId: z.string().min(1).max(100) }), mutates: false },
} as const;
