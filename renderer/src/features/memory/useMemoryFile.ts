import { useEffect, useState } from 'react';
import { memoryFolderKey, type MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { MemoryFileContent } from '../../../../shared/memory/memoryReview';
import { api } from '../../api/connectApi';

export type FileState =
  | { readonly status: 'loading' }
  | { readonly status: 'error'; readonly message: string }
  | { readonly status: 'done'; readonly file: MemoryFileContent };

/** Loads one memory file, again whenever `revision` says the folder changed. */
export function useMemoryFile(folder: MemoryFolderRef, relativePath: string, revision: number): FileState {
  const [state, setState] = useState<FileState>({ status: 'loading' });
  const key = `${memoryFolderKey(folder)}\0${relativePath}`;
  useEffect(() => {
    let current = true;
    void api.readMemoryFile({ folder, relativePath }).then((result) => {
      if (!current) return;
      setState(result.ok ? { status: 'done', file: result.value } : { status: 'error', message: result.error.message });
    });
    return () => {
      current = false;
    };
    // `folder` is a fresh object on every render; the key says when it really changes.
  }, [key, revision]);
  return state;
}
