import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { retentionNotice } from '../../../../src/shared/policy-view'
import { runStatusCommand } from '../../../../src/main/cli/status-command'
import { openCacheDatabase } from '../../../../src/main/core/cache/cache-database'
import type { PolicyInForce } from '../../../../src/main/core/policy/policy-in-force'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../src/main/core/settings/settings-store'
import { runCommand, useScratch } from '../../../helpers/run-cli'
import { TEST_CACHE_KEY } from '../../../helpers/test-cache-key'

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
  openCacheDatabase(catalog, { key: TEST_CACHE_KEY }).close()
  const time = new Date(Date.now() - daysOld * DAY)
  utimesSync(catalog, time, time)
  return { dataDir, catalog }
}

describe('the machine policy’s deleteUnsyncedAfterDays in the CLI', () => {
  it('never deletes a profile’s cache: the running app may have it open, and the app sweeps it at its start', async () => {
    // Nothing tells the CLI whether the app holds the file open (the writer lock is a sync's only), and on macOS
    // and Linux a deletion under the app's open file goes through: decision 043.
    const { dataDir, catalog } = appDataWithOldCache(31)
    const run = await runCommand(
      runStatusCommand,
      ['--profile', 'Acme Ltd', '--data-dir', dataDir, '--json'],
      {},
      POLICY,
    )
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).not.toContain(retentionNotice(30))
    expect(existsSync(catalog)).toBe(true)
  })

  it('never deletes a file named by --db either', async () => {
    const old = appDataWithOldCache(40)
    const named = await runCommand(runStatusCommand, ['--db', old.catalog, '--json'], {}, POLICY)
    expect(named.code, named.stderr).toBe(0)
    expect(named.stderr).not.toContain(retentionNotice(30))
    expect(existsSync(old.catalog)).toBe(true)
  })
})
