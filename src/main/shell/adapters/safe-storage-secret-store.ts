import { app, safeStorage } from 'electron'
import { join } from 'node:path'
import type { Logger } from '../../core/log/logger'
import { openSecretStore } from '../../core/secrets/encrypted-file-secret-store'
import type { SecretVault } from '../../core/secrets/secret-store'

/** The file of OS-encrypted secrets inside the per-user app data folder. */
export const SECRET_FILE_NAME = 'secrets.json'

/**
 * The app's SecretVault (every profile's secrets): Electron's async safeStorage over `<userData>/secrets.json`, or memory only when the OS
 * offers no real encryption (check `persistent`). Call after `app.whenReady()`.
 */
export async function createSafeStorageSecretStore(logger?: Logger): Promise<SecretVault> {
  return openSecretStore({
    safeStorage,
    filePath: join(app.getPath('userData'), SECRET_FILE_NAME),
    platform: process.platform,
    logger,
  })
}
