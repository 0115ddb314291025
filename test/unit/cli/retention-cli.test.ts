import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { retentionNotice } from '../../../src/shared/policy-view'
import { runStatusCommand } from '../../../src/main/cli/status-command'
import { openCacheDatabase } from '../../../src/main/core/cache/cache-database'
import type { PolicyInForce } from '../../../src/main/core/policy/policy-in-force'
import { MemoryKeyValueBackend, SettingsStore } from '../../../src/main/core/settings/settings-store'
import { runCommand, useScratch } from './run-cli'

const scratch = useScratch()
const DAY = 24 * 60 * 60 * 1000

const POLICY: PolicyInForce = {
  policy: { personalData: { deleteUnsyncedAfterDays: 30 } },
  source: '/etc/rosterdesk/policy.json',
  problem: undefined,
}

/** An app data folder with a profile "Acme Ltd" whose cache (never synced completely) is `daysOld` days old. */
function appDataWithOldCache(daysOld: number): { dataDir: string; catalog: string } {
  const dataDir = scratch.tempDir('rosterdesk-cli-retention-')
  const backend = new MemoryKeyValueBackend()
  const acme = new SettingsStore(backend).profiles.create('Acme Ltd')
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(Object.fromEntries(backend.values)))
  const cacheDir = join(dataDir, 'profiles', acme.id, 'cache')
  mkdirSync(cacheDir, { recursive: true })
  const catalog = join(cacheDir, 'employees.sqlite')
  openCacheDatabase(catalog).close()
  const time = new Date(Date.now() - daysOld * DAY)
  utimesSync(catalog, time, time)
  return { dataDir, catalog }
}

describe('the machine policy’s deleteUnsyncedAfterDays in the CLI', () => {
  it('deletes a profile’s cache past the days allowed before a command reads it, and says so once', async () => {
    const { dataDir, catalog } = appDataWithOldCache(31)
    const run = await runCommand(
      runStatusCommand,
      ['--profile', 'Acme Ltd', '--data-dir', dataDir],
      {},
      POLICY,
    )
    expect(run.stderr).toContain(retentionNotice(30))
    expect(existsSync(catalog)).toBe(false)
    // Nothing is left to read: the command fails as for a profile never synced.
    expect(run.code).toBe(1)
  })

  it('keeps a cache within the days allowed, and never deletes a file named by --db', async () => {
    const recent = appDataWithOldCache(29)
    const kept = await runCommand(
      runStatusCommand,
      ['--profile', 'Acme Ltd', '--data-dir', recent.dataDir, '--json'],
      {},
      POLICY,
    )
    expect(kept.code, kept.stderr).toBe(0)
    expect(existsSync(recent.catalog)).toBe(true)

    const old = appDataWithOldCache(40)
    const named = await runCommand(runStatusCommand, ['--db', old.catalog, '--json'], {}, POLICY)
    expect(named.code, named.stderr).toBe(0)
    expect(named.stderr).not.toContain(retentionNotice(30))
    expect(existsSync(old.catalog)).toBe(true)
  })
})
