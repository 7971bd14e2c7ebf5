/**
 * Where a key typed into the app is kept. The desktop shell injects one backed by the OS keychain
 * (Electron safeStorage); the CLI and the web shell keep a typed key in memory only, for as long as they run.
 * No implementation may write the secret in plain text.
 */
export interface SecretStore {
  readonly persistence: 'keychain' | 'session';
  read(): Promise<string | null>;
  write(secret: string): Promise<void>;
  clear(): Promise<void>;
}

/** Holds the secret in this process's memory; it is gone when the process ends. */
export class SessionSecretStore implements SecretStore {
  readonly persistence = 'session' as const;
  private secret: string | null = null;

  read(): Promise<string | null> {
    return Promise.resolve(this.secret);
  }

  write(secret: string): Promise<void> {
    this.secret = secret;
    return Promise.resolve();
  }

  clear(): Promise<void> {
    this.secret = null;
    return Promise.resolve();
  }
}
