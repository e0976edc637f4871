import path from 'node:path';
import { safeStorage } from 'electron';
import { LayeredVault } from '../core/vault';

/**
 * Keys at rest encrypted with the OS keychain (safeStorage), in a 0600 file. Where the only backend is
 * Chromium's plain-text fallback (Linux without a keyring), nothing is persisted: keys live for the session
 * and the profile form says so.
 */
export function createSafeStorageVault(dataDir: string): LayeredVault {
  const usable =
    safeStorage.isEncryptionAvailable() &&
    (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text');
  if (!usable) return new LayeredVault(undefined, undefined);
  return new LayeredVault('keychain', path.join(dataDir, 'keys.json'), {
    encode: (key) => safeStorage.encryptString(key).toString('base64'),
    decode: (blob) => safeStorage.decryptString(Buffer.from(blob, 'base64')),
  });
}
