import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { MemoryKeyValueBackend } from '../../src/main/core/settings/settings-store'

/**
 * Writes the values a test's `SettingsStore` holds as `settings.json` in `dataDir`, the file electron-store keeps
 * for the app, so the CLI (or a second app start) reads the settings the test set up. Owner-only, as the app
 * writes it.
 */
export function writeSettingsFile(dataDir: string, backend: MemoryKeyValueBackend): void {
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(Object.fromEntries(backend.values)), {
    mode: 0o600,
  })
}
