import { cpSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runStatusCommand } from '../../../../src/main/cli/status-command'
import { runSyncCommand } from '../../../../src/main/cli/sync-command'
import { openCacheDatabase } from '../../../../src/main/core/cache/cache-database'
import { CATALOG_VERSION } from '../../../../src/main/core/cache/catalog-schema'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../src/main/core/settings/settings-store'
import type { SandboxHandle } from '../../../../src/main/sandbox/index'
import type { PolicyInForce } from '../../../../src/main/core/policy/policy-in-force'
import { policySchema } from '../../../../src/main/core/policy/policy-schema'
import { runCommand, useScratch } from '../../../helpers/run-cli'
import { startTestSandbox } from '../../../helpers/sandbox'
import { rawSnapshot } from '../../../helpers/raw-snapshot'
import { TEST_CACHE_KEY, encryptFixtureCopy } from '../../../helpers/test-cache-key'

const scratch = useScratch()

const tempDir = (): string => scratch.tempDir('rosterdesk-cli-limits-')

async function sandbox(size: number): Promise<SandboxHandle> {
  const handle = await startTestSandbox({ size, seed: 7 })
  scratch.defer(() => handle.close())
  return handle
}

function serviceArgs(handle: SandboxHandle, db: string): string[] {
  return [
    '--base-url',
    handle.baseUrl,
    '--client-id',
    handle.credentials.clientId,
    '--redirect-uri',
    handle.credentials.redirectUri,
    '--tenant',
    handle.credentials.tenantId,
    '--page-size',
    '25',
    '--db',
    db,
  ]
}

function tokenEnv(handle: SandboxHandle): NodeJS.ProcessEnv {
  return {
    ROSTERDESK_CLIENT_SECRET: handle.credentials.clientSecret,
    ROSTERDESK_ACCESS_TOKEN: handle.issueTokens().accessToken,
  }
}

describe('sync’s limit flags', () => {
  it('hold the run to --max-employees, and a larger ceiling lets it complete', async () => {
    const handle = await sandbox(60)
    const db = join(tempDir(), 'cache.sqlite')
    const refused = await runCommand(
      runSyncCommand,
      [...serviceArgs(handle, db), '--max-employees', '10', '--request-timeout', '5', '--run-deadline', '3'],
      tokenEnv(handle),
    )
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(
      /^Sync failed: .*claims 60 employees .*more than the 10 RosterDesk is set to accept/,
    )
    expect(refused.stderr).toContain('raise “Most employees” in Settings')

    const done = await runCommand(
      runSyncCommand,
      [...serviceArgs(handle, db), '--max-employees', '60', '--json'],
      tokenEnv(handle),
    )
    expect(done.code, done.stderr).toBe(0)
    expect(JSON.parse(done.stdout)).toMatchObject({ status: 'complete', stored: 60 })
    expect(JSON.parse(done.stdout)).not.toHaveProperty('truncatedFields')
  })

  it('take --profile’s saved limits, and a flag given as well wins', async () => {
    const handle = await sandbox(40)
    const dataDir = tempDir()
    const backend = new MemoryKeyValueBackend()
    const settings = new SettingsStore(backend)
    const acme = settings.profiles.create('Acme Ltd')
    settings.profiles.setActive(acme.id)
    const saved = settings.update({
      environment: 'staging',
      baseUrls: { staging: handle.baseUrl },
      clientId: handle.credentials.clientId,
      redirectUri: handle.credentials.redirectUri,
      tenantId: handle.credentials.tenantId,
      maxEmployees: 30,
    })
    expect(saved.ok).toBe(true)
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(Object.fromEntries(backend.values)))

    const refused = await runCommand(
      runSyncCommand,
      ['--profile', 'Acme Ltd', '--data-dir', dataDir],
      tokenEnv(handle),
    )
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/claims 40 employees .*more than the 30 RosterDesk is set to accept/)

    const flagWins = await runCommand(
      runSyncCommand,
      ['--profile', 'Acme Ltd', '--data-dir', dataDir, '--max-employees', '40', '--json'],
      tokenEnv(handle),
    )
    expect(flagWins.code, flagWins.stderr).toBe(0)
    expect(JSON.parse(flagWins.stdout)).toMatchObject({ status: 'complete', stored: 40 })
  })
})

describe('values cut to the longest field allowed', () => {
  it('are counted in the summary line and --json, and kept in the run log for `status`', async () => {
    const handle = await sandbox(60)
    handle.setBehaviours({ oversizedField: { page: 1, row: 3, characters: 50_000 } })
    const db = join(tempDir(), 'cache.sqlite')
    const plain = await runCommand(runSyncCommand, serviceArgs(handle, db), tokenEnv(handle))
    expect(plain.code, plain.stderr).toBe(0)
    expect(plain.stdout).toMatch(
      /^Synced 60 employees .*1 long value was shortened to the longest field allowed \(ending with “…”\)\.\n$/,
    )

    const json = await runCommand(runSyncCommand, [...serviceArgs(handle, db), '--json'], tokenEnv(handle))
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'complete', truncatedFields: 1 })

    // Read back from the catalog by another command: the count outlives the process that synced.
    const status = await runCommand(runStatusCommand, ['--db', db, '--json'])
    expect(status.code, status.stderr).toBe(0)
    expect(JSON.parse(status.stdout)).toMatchObject({ lastComplete: { truncatedFields: 1 } })
  })

  it('are absent from runs logged before the count was kept (a catalog migrated from version 2)', () => {
    const dir = tempDir()
    cpSync(resolve(__dirname, '../../../fixtures/cache-v2'), dir, { recursive: true })
    encryptFixtureCopy(dir)
    const cache = openCacheDatabase(join(dir, 'employees.sqlite'), { key: TEST_CACHE_KEY })
    try {
      expect(cache.db.pragma('user_version', { simple: true })).toBe(CATALOG_VERSION)
      const last = cache.lastCompleteRun()
      expect(last).toMatchObject({ status: 'complete', stored: expect.any(Number) })
      expect(last).not.toHaveProperty('truncatedFields')
    } finally {
      cache.close()
    }
  })
})

describe('sync’s --sync-scope', () => {
  it('stores only active employees with "active", as the app’s "active employees only" setting does', async () => {
    const handle = await sandbox(60)
    const db = join(tempDir(), 'cache.sqlite')
    const result = await runCommand(
      runSyncCommand,
      [...serviceArgs(handle, db), '--sync-scope', 'active', '--json'],
      tokenEnv(handle),
    )
    expect(result.code).toBe(0)
    const summary = JSON.parse(result.stdout) as { status: string; stored: number }
    expect(summary.status).toBe('complete')
    const cache = openCacheDatabase(db, { key: TEST_CACHE_KEY })
    try {
      const rows = rawSnapshot(cache.currentSnapshot())
        .prepare('SELECT row_json FROM employees')
        .pluck()
        .all() as string[]
      expect(rows.length).toBe(summary.stored)
      expect(rows.length).toBeGreaterThan(0)
      expect(rows.length).toBeLessThan(60)
      expect(
        new Set(rows.map((row) => (JSON.parse(row) as { employeeStatus: string }).employeeStatus)),
      ).toEqual(new Set(['Active']))
    } finally {
      cache.close()
    }
  })

  it('refuses a scope it does not know, naming the flag', async () => {
    const handle = await sandbox(10)
    const db = join(tempDir(), 'cache.sqlite')
    const result = await runCommand(
      runSyncCommand,
      [...serviceArgs(handle, db), '--sync-scope', 'some'],
      tokenEnv(handle),
    )
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^--sync-scope: /)
  })
})

describe('sync under the machine policy', () => {
  it('syncs the policy profile’s scope when no flag or app profile says one (active only, as the app would)', async () => {
    const handle = await sandbox(60)
    const policy: PolicyInForce = {
      policy: policySchema.parse({
        profiles: [
          {
            name: 'Acme',
            environment: 'production',
            baseUrl: handle.baseUrl,
            syncScope: 'active',
            locked: ['baseUrl', 'syncScope'],
          },
        ],
      }),
      source: '/etc/rosterdesk/policy.json',
      problem: undefined,
    }
    const byPolicy = await runCommand(
      runSyncCommand,
      [...serviceArgs(handle, join(tempDir(), 'cache.sqlite')), '--json'],
      tokenEnv(handle),
      policy,
    )
    const asked = await runCommand(
      runSyncCommand,
      [...serviceArgs(handle, join(tempDir(), 'cache.sqlite')), '--sync-scope', 'active', '--json'],
      tokenEnv(handle),
    )
    expect(byPolicy.code, byPolicy.stderr).toBe(0)
    expect(asked.code, asked.stderr).toBe(0)
    const stored = (run: { stdout: string }): number => (JSON.parse(run.stdout) as { stored: number }).stored
    expect(stored(byPolicy)).toBe(stored(asked))
    expect(stored(byPolicy)).toBeLessThan(60)
  })
})
