import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runExportCommand } from '../../../../src/main/cli/export-command'
import { readCliProfile } from '../../../../src/main/cli/profile-flag'
import { locateCacheFolders } from '../../../../src/main/core/cache/cache-folders'
import { CACHE_FILE_NAME } from '../../../../src/main/core/settings/profile-store'
import { runStatusCommand } from '../../../../src/main/cli/status-command'
import { runSyncCommand } from '../../../../src/main/cli/sync-command'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../src/main/core/settings/settings-store'
import { runCommand, useScratch } from '../../../helpers/run-cli'
import { startTestSandbox } from '../../../helpers/sandbox'
import { aboutCells, readXlsx } from '../../../helpers/xlsx-reader'
import { writeSettingsFile } from '../../../helpers/settings-file'

const scratch = useScratch()

describe('the CLI’s --profile NAME', () => {
  it('syncs into and reads the cache the app fills for that profile, with that profile’s settings', async () => {
    // Larger pages than the profile's 25 are refused, so the sync falls back to the profile's page size.
    const sandbox = await startTestSandbox({ size: 60, seed: 4, behaviours: { refuseLargeLimit: 25 } })
    scratch.defer(() => sandbox.close())
    const dataDir = scratch.tempDir('rosterdesk-cli-profile-')

    // The app's settings file, as the app writes it: a Demo profile and a client company on Staging.
    const backend = new MemoryKeyValueBackend()
    const settings = new SettingsStore(backend)
    const acme = settings.profiles.create('Acme Ltd')
    settings.profiles.setActive(acme.id)
    expect(
      settings.update({
        environment: 'staging',
        baseUrls: { staging: sandbox.baseUrl },
        clientId: sandbox.credentials.clientId,
        redirectUri: sandbox.credentials.redirectUri,
        tenantId: sandbox.credentials.tenantId,
        pageSize: 25,
      }).ok,
    ).toBe(true)
    settings.profiles.setActive('p1')
    writeSettingsFile(dataDir, backend)

    const env = {
      ROSTERDESK_CLIENT_SECRET: sandbox.credentials.clientSecret,
      ROSTERDESK_ACCESS_TOKEN: sandbox.issueTokens().accessToken,
    }
    const synced = await runCommand(
      runSyncCommand,
      ['--profile', 'acme ltd', '--data-dir', dataDir, '--json'],
      env,
    )
    expect(synced.code, synced.stdout).toBe(0)
    expect(JSON.parse(synced.stdout)).toMatchObject({ status: 'complete', stored: 60, pages: 3 })
    expect(existsSync(join(dataDir, 'profiles', acme.id, 'cache', 'employees.sqlite'))).toBe(true)
    expect(existsSync(join(dataDir, 'cache', 'employees.sqlite'))).toBe(false)

    // ROSTERDESK_USER_DATA_DIR names the folder as it does for the app.
    const status = await runCommand(runStatusCommand, ['--profile', 'Acme Ltd', '--json'], {
      ROSTERDESK_USER_DATA_DIR: dataDir,
    })
    expect(status.code, status.stderr).toBe(0)
    expect(JSON.parse(status.stdout)).toMatchObject({ employeeCount: 60 })

    // Its export's About sheet names the profile.
    const out = join(dataDir, 'acme.xlsx')
    const exported = await runCommand(
      runExportCommand,
      ['--profile', 'ACME LTD', '--data-dir', dataDir, '--out', out],
      env,
    )
    expect(exported.code, exported.stderr).toBe(0)
    const about = aboutCells(await readXlsx(out))
    expect(about.get('Profile')?.v).toBe('Acme Ltd')
    expect(about.get('Tenant')?.v).toBe(sandbox.credentials.tenantId)

    const demo = await runCommand(runSyncCommand, ['--profile', 'Demo', '--data-dir', dataDir], env)
    expect(demo.code).toBe(2)
    expect(demo.stderr).toContain('"Demo" uses Demo, the app\'s built-in sandbox')
    const unknown = await runCommand(runStatusCommand, ['--profile', 'Globex', '--data-dir', dataDir], env)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('no profile named "Globex". Profiles: Demo, Acme Ltd.')
  })
})

describe('the CLI’s --profile NAME while the app moves its cache (decision 046)', () => {
  it('looks the cache up again before a sync opens it, and never makes the old folder again', () => {
    const base = scratch.tempDir('rosterdesk-cli-moved-')
    const dataDir = join(base, 'Roaming', 'RosterDesk')
    const cacheRoot = join(base, 'Local', 'RosterDesk')
    const backend = new MemoryKeyValueBackend()
    const acme = new SettingsStore(backend).profiles.create('Acme Ltd')
    mkdirSync(dataDir, { recursive: true })
    writeSettingsFile(dataDir, backend)
    const oldDir = join(dataDir, 'profiles', acme.id)
    mkdirSync(join(oldDir, 'cache'), { recursive: true })
    writeFileSync(join(oldDir, 'cache', CACHE_FILE_NAME), '')

    // Read while the cache is still in the roaming folder: there, and not to be made again once gone.
    const profile = readCliProfile('acme ltd', {
      dataDir,
      caches: locateCacheFolders(existsSync, dataDir, cacheRoot),
    })
    expect(profile.db).toBe(join(oldDir, 'cache', CACHE_FILE_NAME))
    expect(profile.locateDb()).toEqual({ path: profile.db, mayCreate: false })

    // The app moves it (its start, meanwhile): the sync opens the moved one, whose folder it may make.
    mkdirSync(join(cacheRoot, 'profiles'), { recursive: true })
    renameSync(oldDir, join(cacheRoot, 'profiles', acme.id))
    expect(profile.locateDb()).toEqual({
      path: join(cacheRoot, 'profiles', acme.id, 'cache', CACHE_FILE_NAME),
      mayCreate: true,
    })
  })
})
