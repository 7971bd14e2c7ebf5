import { mkdtempSync, realpathSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

/** A stand-in for Electron's safeStorage: reversible, but never the plain bytes. */
const safeStorage = vi.hoisted(() => ({
  available: true,
  backend: 'gnome_libsecret',
  isEncryptionAvailable() {
    return this.available;
  },
  getSelectedStorageBackend() {
    return this.backend;
  },
  encryptString(text: string) {
    return Buffer.from(`enc:${Buffer.from(text).toString('base64').split('').reverse().join('')}`);
  },
  decryptString(bytes: Buffer) {
    const text = bytes.toString();
    if (!text.startsWith('enc:')) throw new Error('not ours');
    return Buffer.from(text.slice(4).split('').reverse().join(''), 'base64').toString();
  },
}));
vi.mock('electron', () => ({ safeStorage }));

const { KeychainSecretStore } = await import('../../../electron/main/secretStore');

const KEY = 'sk-ant-api03-keychain-test-0123456789';
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-keychain-')));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the desktop's key store", () => {
  beforeEach(() => {
    safeStorage.available = true;
    safeStorage.backend = 'gnome_libsecret';
  });

  it('keeps the key encrypted on disk and reads it back', async () => {
    const store = new KeychainSecretStore(join(dir, 'a', 'key.enc'));
    expect(await store.read()).toBeNull();
    await store.write(KEY);
    const bytes = await readFile(join(dir, 'a', 'key.enc'));
    expect(bytes.toString()).not.toContain(KEY);
    expect(bytes.toString('latin1')).not.toContain(KEY);
    expect(await store.read()).toBe(KEY);
    await store.clear();
    expect(await store.read()).toBeNull();
  });

  it('refuses to store a key without a real keychain', async () => {
    const store = new KeychainSecretStore(join(dir, 'b', 'key.enc'));
    safeStorage.available = false;
    await expect(store.write(KEY)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    safeStorage.available = true;
    if (process.platform === 'linux') {
      safeStorage.backend = 'basic_text';
      await expect(store.write(KEY)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    await expect(readFile(join(dir, 'b', 'key.enc'))).rejects.toThrow();
  });
});
