import type { RequestHandlers } from '../../../shared/contract/api';
import type { CopyCommandDetails } from '../../../shared/errorDetails';
import { CodedError } from '../../../shared/result';
import type { TranscriptService } from './TranscriptService';

export type TranscriptRequestName =
  | 'openTranscript'
  | 'readTranscriptPage'
  | 'findInTranscript'
  | 'readTranscriptUsage'
  | 'readSessionMemory'
  | 'readToolOutput'
  | 'exportTranscript'
  | 'resumeSession'
  | 'getTerminalSetting'
  | 'setTerminalSetting';

/**
 * The transcript viewer's handlers. Opening a terminal is the desktop shell's business: the engine (and so the
 * web shell) answers `resumeSession` with UNSUPPORTED and the commands to copy instead; Electron main overrides it.
 */
export function transcriptRequestHandlers(transcripts: TranscriptService): Pick<RequestHandlers, TranscriptRequestName> {
  const noTerminal = (details?: CopyCommandDetails) =>
    new CodedError('UNSUPPORTED', 'This window cannot open a terminal: copy the command and run it yourself.', details);
  return {
    openTranscript: ({ view, focusLine, ...ref }) => transcripts.outline(ref, view, focusLine),
    readTranscriptPage: ({ view, start, limit, ...ref }) => transcripts.page(ref, view, start, limit),
    findInTranscript: ({ view, query, limit, ...ref }) => transcripts.find(ref, view, query, limit),
    readTranscriptUsage: ({ view, ...ref }) => transcripts.usage(ref, view),
    readSessionMemory: (ref) => transcripts.sessionMemory(ref),
    readToolOutput: ({ fileName, offset, ...ref }) => transcripts.toolOutput(ref, fileName, offset),
    exportTranscript: ({ format, cursor, ...ref }) => transcripts.exportChunk(ref, format, cursor),
    resumeSession: async ({ fork, ...ref }) => {
      const target = await transcripts.resumeTarget(ref);
      throw noTerminal({ command: fork ? target.commands.copyFork : target.commands.copyResume });
    },
    getTerminalSetting: () => Promise.reject(noTerminal()),
    setTerminalSetting: () => Promise.reject(noTerminal()),
  };
}
