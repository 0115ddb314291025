import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import type { ProfileList } from '../../../../../src/shared/domain/profiles'
import { MemorySecretStore, type SecretVault } from '../../../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../../src/main/core/settings/settings-store'
import { sandbox, startApp, tempDir } from '../../../../helpers/app-core-under-test'

/** A pid no process has. */
const GONE = 999_999_999
/** Long before this test's process started. */
const LONG_AGO = Date.now() / 1000 - 24 * 60 * 60

function file(path: string, old: boolean): void {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, 'Smith, Jane; 52,000')
  if (old) utimesSync(path, LONG_AGO, LONG_AGO)
}

function folder(path: string, old: boolean): void {
  file(join(path, 'print.html'), old)
  if (old) utimesSync(path, LONG_AGO, LONG_AGO)
}

/**
 * Issue 31, point 6: what a crash or a half-done deletion left (print pages with pay, partial export files, the
 * folders of deleted profiles) is swept as the app core starts, and only that; a profile's data goes before its
 * entry in the settings.
 */
describe('leftovers swept at start', () => {
  it('removes dead runs’ print pages and part files and deleted profiles’ folders, keeping everything live', async () => {
    const demo = await sandbox({ size: 5, seed: 1 })
    const dataDir = tempDir()
    const temp = tempDir()
    const exports = tempDir()
    const backend = new MemoryKeyValueBackend()
    const settings = new SettingsStore(backend)
    settings.profiles.create('Deleted by an older version') // p2
    settings.profiles.create('Kept') // p3
    // An older version dropped p2 from the settings, then failed to delete its folder.
    settings.profiles.delete('p2')
    backend.set('exportMemory', { lastFolder: exports })

    // Print pages: a crashed run's (its pid gone), an older version's name (before this start), another live
    // RosterDesk's (its pid runs: this test's parent process), and a folder that is not a print page.
    folder(join(temp, `rosterdesk-print-${GONE}-aB3dE9`), true)
    folder(join(temp, 'rosterdesk-print-Xy12Zw'), true)
    folder(join(temp, `rosterdesk-print-${process.ppid}-live01`), true)
    folder(join(temp, 'rosterdesk-print-test-abc123'), true)
    // Profiles' folders: p2 is gone, p3 is listed, p9 was never given (a settings file read afresh).
    file(join(dataDir, 'profiles', 'p2', 'cache', 'employees.sqlite'), true)
    file(join(dataDir, 'profiles', 'p2', 'cache-set-aside', 'employees.sqlite'), true)
    file(join(dataDir, 'profiles', 'p3', 'cache', 'employees.sqlite'), true)
    file(join(dataDir, 'profiles', 'p9', 'cache', 'employees.sqlite'), true)
    // Part files in the last export folder: a killed export's, a live process's, one written since this start.
    file(join(exports, `.Roster.xlsx.${GONE}-0a1b2c3d.part`), true)
    file(join(exports, `.Live.xlsx.${process.ppid}-0a1b2c3d.part`), true)
    file(join(exports, `.Fresh.xlsx.${GONE}-0a1b2c3d.part`), false)
    file(join(exports, 'Roster.xlsx'), true)

    const app = await startApp(demo, dataDir, backend, new MemorySecretStore(), { tempDir: temp })

    expect(readdirSync(temp).sort()).toEqual([
      `rosterdesk-print-${process.ppid}-live01`,
      'rosterdesk-print-test-abc123',
    ])
    expect(readdirSync(join(dataDir, 'profiles')).sort()).toEqual(['p3', 'p9'])
    await vi.waitFor(() =>
      expect(existsSync(join(exports, `.Roster.xlsx.${GONE}-0a1b2c3d.part`))).toBe(false),
    )
    expect(readdirSync(exports).sort()).toEqual([
      `.Fresh.xlsx.${GONE}-0a1b2c3d.part`,
      `.Live.xlsx.${process.ppid}-0a1b2c3d.part`,
      'Roster.xlsx',
    ])
    // Kinds and counts only: no file or profile names.
    const swept = app.log.filter((line) => line.includes('Start: removed'))
    expect(swept).toEqual([
      'info: Start: removed what an earlier run left behind: 2 print page(s), 1 folder(s) of deleted profiles',
      'info: Start: removed 1 partial export file(s) an earlier run left behind',
    ])
  })

  it('deletes a profile’s data before its entry: a deletion that fails leaves the profile, to delete again', async () => {
    const demo = await sandbox({ size: 5, seed: 2 })
    const dataDir = tempDir()
    const backend = new MemoryKeyValueBackend()
    const secrets = new MemorySecretStore()
    let refuse = true
    const vault: SecretVault = {
      persistent: false,
      get: (key) => secrets.get(key),
      set: (key, value) => secrets.set(key, value),
      delete: async (key) => {
        if (refuse) throw new Error('The keyring is locked')
        await secrets.delete(key)
      },
    }
    const app = await startApp(demo, dataDir, backend, vault, { tempDir: tempDir() })
    const { profiles } = (await app.invoke('profiles:create', 'Client B')) as ProfileList
    const id = profiles[1]!.id
    file(join(dataDir, 'profiles', id, 'cache', 'employees.sqlite'), false)

    await expect(app.invoke('profiles:delete', id)).rejects.toThrow()
    const after = (await app.invoke('profiles:list')) as ProfileList
    expect(after.profiles.map((profile) => profile.id)).toEqual(['p1', id])
    expect(existsSync(join(dataDir, 'profiles', id))).toBe(false)

    refuse = false
    const deleted = (await app.invoke('profiles:delete', id)) as ProfileList
    expect(deleted.profiles.map((profile) => profile.id)).toEqual(['p1'])
  })
})

/** Issue 31, point 5: an older version's files (the umask's 0644 and 0755) are made the clerk's own at start. */
describe.skipIf(process.platform === 'win32')('an older install’s modes', () => {
  it('are tightened to 0700 folders and 0600 files as the app core starts, links left alone', async () => {
    const demo = await sandbox({ size: 5, seed: 1 })
    const dataDir = tempDir()
    const elsewhere = tempDir()
    const modeOf = (path: string): string => (lstatSync(path).mode & 0o777).toString(8)
    const cache = join(dataDir, 'cache')
    mkdirSync(cache, { recursive: true, mode: 0o755 })
    chmodSync(dataDir, 0o755)
    chmodSync(cache, 0o755)
    writeFileSync(join(cache, 'employees.sqlite'), '', { mode: 0o644 })
    writeFileSync(join(dataDir, 'settings.json'), '{}', { mode: 0o644 })
    chmodSync(join(cache, 'employees.sqlite'), 0o644)
    chmodSync(join(dataDir, 'settings.json'), 0o644)
    // A link to something that is not RosterDesk's: neither followed nor changed.
    writeFileSync(join(elsewhere, 'notes.txt'), 'not ours')
    chmodSync(join(elsewhere, 'notes.txt'), 0o644)
    symlinkSync(join(elsewhere, 'notes.txt'), join(dataDir, 'link-to-notes'))

    const app = await startApp(demo, dataDir, new MemoryKeyValueBackend(), new MemorySecretStore())

    expect(modeOf(dataDir)).toBe('700')
    expect(modeOf(cache)).toBe('700')
    expect(modeOf(join(cache, 'employees.sqlite'))).toBe('600')
    expect(modeOf(join(dataDir, 'settings.json'))).toBe('600')
    expect(modeOf(join(elsewhere, 'notes.txt'))).toBe('644')
    expect(app.log.filter((line) => line.includes('readable by this account only'))).toEqual([
      'info: Start: 4 folder(s) and file(s) made readable by this account only',
    ])
    // Once per data folder: the marker spares later starts the walk through Chromium's caches.
    expect(modeOf(join(dataDir, '.owner-only-v1'))).toBe('600')
  })
})
