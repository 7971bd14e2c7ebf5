import { useEffect, useState } from 'react';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { MemoryFileContent } from '../../../../shared/memory/memoryReview';
import { api } from '../../api/connectApi';
import { useMutation } from '../../components/useMutation';
import type { FileState } from './useMemoryFile';

export interface SecretReveal {
  /** The file with its secrets shown, after an explicit click (desktop only); null while they are masked. */
  readonly revealed: MemoryFileContent | null;
  readonly error: string | null;
  /** Reads the file with its secrets shown, without showing it (the editor needs the real text). */
  readonly read: () => Promise<MemoryFileContent | null>;
  readonly show: () => void;
  readonly hide: () => void;
}

/** Reading a memory with its secrets shown; forgotten whenever `shown` (the file as read) changes. */
export function useSecretReveal(folder: MemoryFolderRef, relativePath: string, shown: FileState): SecretReveal {
  const [revealed, setRevealed] = useState<MemoryFileContent | null>(null);
  const reading = useMutation();
  const { clear } = reading;
  useEffect(() => {
    setRevealed(null);
    clear();
  }, [shown, clear]);
  const read = async () => {
    const result = await reading.run(() => api.readMemoryFile({ folder, relativePath, revealSecrets: true }));
    return result.ok ? result.value : null;
  };
  return {
    revealed,
    error: reading.error,
    read,
    show: () => void read().then(setRevealed),
    hide: () => setRevealed(null),
  };
}
