import { archiveDir } from '../core/history/archive/archiveDir';
import { TranscriptArchive } from '../core/history/archive/TranscriptArchive';
import { configRootsFromEnv } from '../core/layout/configRoots';
import { defaultDataDir } from '../core/home/dataDir';
import { discoverFolderSessions } from '../core/home/projectDiscovery';
import { readSessionQuickInfo } from '../core/layout/sessionQuickInfo';
import { TranscriptService, type TranscriptHome } from '../core/transcripts/TranscriptService';
import { TranscriptSources } from '../core/transcripts/transcriptSources';
import type { CliIo } from './cliIo';

export interface CliTranscriptReader {
  readonly transcripts: TranscriptService;
  dispose(): Promise<void>;
}

/**
 * The transcript reader of the engine (`engine.transcripts`, reading the disk, then the archive) without the rest of
 * it: a one-shot read of one session builds no home discovery, catalog, history, jobs or model clients, and loads
 * none of their code.
 */
export function openCliTranscriptReader(io: CliIo): CliTranscriptReader {
  const roots = configRootsFromEnv(io.env).map((root) => root.path);
  // What HomeService answers before it has discovered anything: the configured roots, and one folder read when asked.
  const home: TranscriptHome = { configRoots: () => roots, sessionsInFolder: (ref) => discoverFolderSessions(ref, readSessionQuickInfo) };
  const archive = new TranscriptArchive(archiveDir(defaultDataDir(io.env)));
  const transcripts = new TranscriptService(home, null, undefined, new TranscriptSources(archive));
  return {
    transcripts,
    dispose: async () => {
      transcripts.dispose();
      await archive.dispose();
    },
  };
}
