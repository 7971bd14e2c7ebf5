import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { encodeDataFrame, encodeMetaFrame, FRAME_HEADER_BYTES } from './archiveFrames';
import { backupDataFileName, fileHistoryDir } from './archiveDataFiles';
import type { ArchivedBackupRecord, DataFileDescription } from './archiveModel';

/** A file-history backup larger than this is not a memory file's (Claude Code caps those far lower); it is not kept. */
const MAX_BACKUP_BYTES = 32 * 1024 * 1024;

export interface BackupToKeep {
  readonly configRoot: string;
  /** A session id from the catalog (a UUID from a file name) and a backup name checked by `BACKUP_FILE_NAME`. */
  readonly sessionId: string;
  readonly backupFileName: string;
  /** The memory file the snapshot line named for it. */
  readonly trackedPath: string;
}

/**
 * Copies one `<config root>/file-history/<sessionId>/<backupFileName>` into the archive (a description frame and one
 * data frame), reading only; null when Claude Code removed it already or never wrote it.
 */
export async function archiveFileHistoryBackup(
  archiveDir: string,
  backup: BackupToKeep,
  now: string,
): Promise<ArchivedBackupRecord | null> {
  const sourcePath = join(backup.configRoot, 'file-history', backup.sessionId, backup.backupFileName);
  let bytes: Buffer;
  try {
    const stats = await fs.stat(sourcePath);
    if (!stats.isFile() || stats.size > MAX_BACKUP_BYTES) return null;
    bytes = await fs.readFile(sourcePath);
  } catch {
    return null;
  }
  const description: DataFileDescription = { kind: 'file-history', ...backup, createdAt: now };
  const descriptionFrame = encodeMetaFrame(description);
  const { frame, crc } = await encodeDataFrame(bytes);
  const dataFile = backupDataFileName(backup.configRoot, backup.sessionId, backup.backupFileName);
  await fs.mkdir(fileHistoryDir(archiveDir), { recursive: true });
  await fs.writeFile(join(fileHistoryDir(archiveDir), dataFile), Buffer.concat([descriptionFrame, frame]), { mode: 0o600 });
  return {
    ...backup,
    dataFile,
    bytes: bytes.length,
    compressedBytes: descriptionFrame.length + frame.length,
    frame: [0, descriptionFrame.length, bytes.length, frame.length - FRAME_HEADER_BYTES, crc],
    archivedAt: now,
  };
}
