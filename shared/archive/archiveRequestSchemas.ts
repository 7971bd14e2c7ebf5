import { z } from 'zod';
import { MAX_ARCHIVE_CAP_BYTES, MIN_ARCHIVE_CAP_BYTES } from './archiveCap';
import type { ArchiveProgress, ArchiveRemovalResult, ArchiveStatus } from '../model/archive';

/** A project folder name under `projects/`: one name, no separators, no dot segments, no NUL. */
const slugSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((s) => !/[/\\\0]/.test(s) && s !== '.' && s !== '..', 'must be a single folder name');

/** The transcript archive's requests; spread into the contract's `requestSchemas`. */
export const archiveRequestSchemas = {
  getArchiveStatus: { args: z.strictObject({}), mutates: false },
  /** Brings the archive up to date now, in the background (progress as `archiveProgress` events). */
  updateArchive: { args: z.strictObject({}), mutates: false },
  /** Stops the run every client sees (as cancelling the catalog build does). */
  cancelArchiveUpdate: { args: z.strictObject({}), mutates: true },
  setArchiveSettings: {
    args: z.strictObject({
      enabled: z.boolean().optional(),
      maxBytes: z.number().int().min(MIN_ARCHIVE_CAP_BYTES).max(MAX_ARCHIVE_CAP_BYTES).nullable().optional(),
    }),
    mutates: true,
  },
  /** Removes the archived sessions whose last activity is before a date. */
  pruneArchive: { args: z.strictObject({ before: z.iso.datetime({ offset: true }) }), mutates: true },
  /** Removes every archived session of a project the user deleted on purpose. */
  deleteProjectArchive: { args: z.strictObject({ configRoot: z.string().min(1).max(4096), slug: slugSchema }), mutates: true },
} as const;

export interface ArchiveRequestResults {
  getArchiveStatus: ArchiveStatus;
  updateArchive: ArchiveProgress | null;
  cancelArchiveUpdate: null;
  setArchiveSettings: ArchiveStatus;
  pruneArchive: ArchiveRemovalResult;
  deleteProjectArchive: ArchiveRemovalResult;
}
