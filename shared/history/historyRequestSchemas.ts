/** The boundary schemas of the memory history requests (spread into `requestSchemas` in shared/contract/requests.ts). */
import { z } from 'zod';
import { memoryFolderRefSchema, memoryPathSchema } from '../memory/memoryRequestSchemas';
import { MAX_BACKUP_ARCHIVE_BASE64, type BackupExport, type ImportPreview, type ImportResult } from './backupModel';
import {
  CHANGE_CAUSES,
  type ChangeSetPage,
  type ChangeSetSummary,
  type DreamReviewItem,
  type FileBlame,
  type FileOrigin,
  type FileVersion,
  type HistoryStatus,
  type ReconstructionStatus,
  type RollbackPlan,
  type RollbackResult,
  type SessionMemoryWrites,
  type VersionPair,
} from './historyModel';

const slugSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((s) => !/[/\\\0]/.test(s) && s !== '.' && s !== '..', 'must be a single folder name');
const projectSchema = z.strictObject({ configRoot: z.string().min(1).max(4096), slug: slugSchema });
const hashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 hash');
const changeSetIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9-]+$/, 'must be a change set id');
const sessionIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9-]+$/, 'must be a session id');
/** A backup archive, base64, up to the size an import accepts at all. */
const archiveSchema = z
  .string()
  .min(4)
  .max(MAX_BACKUP_ARCHIVE_BASE64)
  .regex(/^[A-Za-z0-9+/=]+$/, 'must be base64');

export const historyRequestSchemas = {
  getHistoryStatus: { args: z.strictObject({}), mutates: false },
  listHistory: {
    args: z.strictObject({
      project: projectSchema.nullable().optional(),
      folder: memoryFolderRefSchema.nullable().optional(),
      causes: z.array(z.enum(CHANGE_CAUSES)).max(CHANGE_CAUSES.length).nullable().optional(),
      sessionId: sessionIdSchema.nullable().optional(),
      path: memoryPathSchema.nullable().optional(),
      includeFirstSight: z.boolean().optional(),
      since: z.iso.datetime({ offset: true }).nullable().optional(),
      offset: z.number().int().min(0).max(10_000_000).optional(),
      limit: z.number().int().min(1).max(1000).optional(),
    }),
    mutates: false,
  },
  getChangeSet: { args: z.strictObject({ id: changeSetIdSchema }), mutates: false },
  readChangeSetDiff: { args: z.strictObject({ id: changeSetIdSchema }), mutates: false },
  listFileVersions: { args: z.strictObject({ folder: memoryFolderRefSchema, path: memoryPathSchema }), mutates: false },
  readVersionPair: {
    args: z.strictObject({
      folder: memoryFolderRefSchema,
      path: memoryPathSchema,
      before: hashSchema.nullable(),
      after: hashSchema.nullable(),
    }),
    mutates: false,
  },
  listDreams: { args: z.strictObject({ project: projectSchema.nullable() }), mutates: false },
  countUnreviewedDreams: { args: z.strictObject({}), mutates: false },
  keepDream: { args: z.strictObject({ id: changeSetIdSchema }), mutates: true },
  planRestore: {
    args: z.strictObject({
      folder: memoryFolderRefSchema,
      path: memoryPathSchema,
      version: hashSchema,
      expected: hashSchema.nullable().optional(),
    }),
    mutates: false,
  },
  restoreVersion: {
    args: z.strictObject({
      folder: memoryFolderRefSchema,
      path: memoryPathSchema,
      version: hashSchema,
      expected: hashSchema.nullable().optional(),
    }),
    mutates: true,
  },
  planRevert: {
    args: z.strictObject({ id: changeSetIdSchema, paths: z.array(memoryPathSchema).min(1).max(10_000).optional() }),
    mutates: false,
  },
  revertChangeSet: {
    args: z.strictObject({ id: changeSetIdSchema, paths: z.array(memoryPathSchema).min(1).max(10_000).optional() }),
    mutates: true,
  },
  exportMemoryBackup: {
    args: z.strictObject({ folder: memoryFolderRefSchema, asOf: z.iso.datetime({ offset: true }).nullable() }),
    mutates: false,
  },
  previewMemoryImport: { args: z.strictObject({ folder: memoryFolderRefSchema, archive: archiveSchema }), mutates: false },
  blameFile: { args: z.strictObject({ folder: memoryFolderRefSchema, path: memoryPathSchema }), mutates: false },
  getFileOrigin: { args: z.strictObject({ folder: memoryFolderRefSchema, path: memoryPathSchema }), mutates: false },
  listSessionMemoryWrites: {
    args: z.strictObject({ sessionIds: z.array(sessionIdSchema).max(100_000).nullable() }),
    mutates: false,
  },
  applyMemoryImport: {
    args: z.strictObject({
      folder: memoryFolderRefSchema,
      archive: archiveSchema,
      expected: z.record(memoryPathSchema, hashSchema.nullable()),
    }),
    mutates: true,
  },
} as const;

export interface UnreviewedDreamCount {
  readonly configRoot: string;
  readonly slug: string;
  readonly count: number;
}

/** The results of the history requests (listed in `RequestResults`). */
export interface HistoryRequestResults {
  getHistoryStatus: HistoryStatus;
  listHistory: ChangeSetPage;
  getChangeSet: ChangeSetSummary;
  readChangeSetDiff: readonly VersionPair[];
  listFileVersions: readonly FileVersion[];
  readVersionPair: VersionPair;
  listDreams: readonly DreamReviewItem[];
  countUnreviewedDreams: readonly UnreviewedDreamCount[];
  keepDream: DreamReviewItem['review'];
  planRestore: RollbackPlan;
  restoreVersion: RollbackResult;
  planRevert: RollbackPlan;
  revertChangeSet: RollbackResult;
  exportMemoryBackup: BackupExport;
  previewMemoryImport: ImportPreview;
  applyMemoryImport: ImportResult;
  blameFile: FileBlame;
  getFileOrigin: FileOrigin;
  listSessionMemoryWrites: readonly SessionMemoryWrites[];
}

/** Reconstruction of the time before history started is running (or ended): how far it got. */
export type HistoryReconstructionEvent = ReconstructionStatus;

/** A new version was recorded, a rollback landed or a dream was reviewed: history views refresh. */
export interface HistoryChangedEvent {
  /** The memory folders (absolute) whose history changed. */
  readonly folders: readonly string[];
  readonly changeSetIds: readonly string[];
}
