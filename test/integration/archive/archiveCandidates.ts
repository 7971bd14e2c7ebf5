import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { identify } from '../../../electron/core/catalog/catalogDiscovery';
import type { ArchiveCandidate } from '../../../electron/core/history/archive/TranscriptArchive';
import type { ArchivedLayout } from '../../../electron/core/history/archive/archiveModel';
import { memoryFolderTest } from '../../../electron/core/history/archive/fileHistorySnapshots';
import type { TranscriptArchive } from '../../../electron/core/history/archive/TranscriptArchive';

export interface CandidateSpec {
  readonly path: string;
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  readonly agentId?: string | null;
  readonly layout?: ArchivedLayout;
  readonly memoryDir?: string;
  readonly cwd?: string | null;
}

/** What the catalog hands the archive for a file on disk, built from the file as it is now. */
export function candidateFor(spec: CandidateSpec): ArchiveCandidate {
  const file = identify(spec.path);
  if (!file) throw new Error(`${spec.path} is not a file`);
  return {
    path: spec.path,
    configRoot: spec.configRoot,
    slug: spec.slug,
    sessionId: spec.sessionId,
    agentId: spec.agentId ?? null,
    layout: spec.layout ?? 'session',
    identity: { fileId: file.fileId, size: file.size, mtimeNs: file.mtimeNs, mtimeMs: file.mtimeMs },
    cwd: spec.cwd ?? null,
    isMemoryPath: memoryFolderTest(spec.configRoot, spec.memoryDir ?? `${spec.configRoot}/projects/${spec.slug}/memory`),
  };
}

/** Every byte of an archived transcript, read through the archive in reads of `step` bytes at odd offsets. */
export async function readArchived(archive: TranscriptArchive, path: string, step = 4093): Promise<Buffer> {
  const source = await archive.openSource(path);
  if (!source) throw new Error(`${path} is not archived`);
  try {
    const { size } = await source.stat();
    const out = Buffer.alloc(size);
    for (let at = 0; at < size; at += step) {
      const { bytesRead } = await source.read(out, at, Math.min(step, size - at), at);
      if (bytesRead !== Math.min(step, size - at)) throw new Error(`short read at ${at}`);
    }
    return out;
  } finally {
    await source.close();
  }
}

export function fileBytes(path: string): Promise<Buffer> {
  return readFile(path);
}

/**
 * Length and SHA-256 of some bytes: compared with `toEqual`, two big buffers differ as one readable line, and fast
 * (a deep comparison of megabytes element by element takes seconds).
 */
export function fingerprint(bytes: Uint8Array): string {
  return `${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`;
}
