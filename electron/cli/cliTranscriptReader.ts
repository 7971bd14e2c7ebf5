import { archiveDir } from '../core/history/archive/archiveDir';
import { TranscriptArchive } from '../core/history/archive/TranscriptArchive';
import { configRootsFromEnv } from '../core/home/configRoots';
import { defaultDataDir } from '../core/home/dataDir';
import { HomeService } from '../core/home/HomeService';
import { TranscriptService } from '../core/transcripts/TranscriptService';
import { TranscriptSources } from '../core/transcripts/transcriptSources';
import type { CliIo } from './cliIo';

export interface CliTranscriptReader {
  readonly transcripts: TranscriptService;
  dispose(): Promise<void>;
}

/**
 * The transcript reader of the engine (`engine.transcripts`, reading the disk, then the archive) without the rest of
 * it: a one-shot read of one session builds no catalog, history, jobs or model clients, and loads none of their code.
 */
export function openCliTranscriptReader(io: CliIo): CliTranscriptReader {
  const dataDir = defaultDataDir(io.env);
  const home = new HomeService({ roots: configRootsFromEnv(io.env), dataDir, demoHomeSource: null, shell: 'cli', readOnly: true });
  const archive = new TranscriptArchive(archiveDir(dataDir));
  const transcripts = new TranscriptService(home, null, undefined, new TranscriptSources(archive));
  return {
    transcripts,
    dispose: async () => {
      transcripts.dispose();
      await archive.dispose();
      await home.dispose();
    },
  };
}
