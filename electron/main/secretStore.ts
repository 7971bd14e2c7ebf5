import { safeStorage } from 'electron';
import { promises as fs } from 'node:fs';
import { CodedError } from '../../shared/result';
import type { SecretStore } from '../core/settings/secretStore';
import { replaceFileAtomically } from '../core/fs/replaceFileAtomically';

/**
 * Whether safeStorage really encrypts with an OS keychain. On Linux without a secret service it falls back
 * to a fixed password ('basic_text'), which is plain text in all but name: we refuse it.
 */
function keychainAvailable(): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  return process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text';
}

/** The desktop app's API key: encrypted by the OS keychain (Electron safeStorage) in one file in userData. */
export class KeychainSecretStore implements SecretStore {
  readonly persistence = 'keychain' as const;

  constructor(private readonly file: string) {}

  async read(): Promise<string | null> {
    const encrypted = await fs.readFile(this.file).catch(() => null);
    if (!encrypted || !keychainAvailable()) return null;
    try {
      return safeStorage.decryptString(encrypted);
    } catch {
      // Encrypted by another user or machine: as good as no key.
      return null;
    }
  }

  async write(secret: string): Promise<void> {
    if (!keychainAvailable())
      throw new CodedError(
        'FORBIDDEN',
        'No system keychain is available, so the key cannot be stored safely; set ANTHROPIC_API_KEY instead',
      );
    const encrypted = safeStorage.encryptString(secret);
    await replaceFileAtomically(this.file, encrypted);
  }

  async clear(): Promise<void> {
    await fs.rm(this.file, { force: true });
  }
}
