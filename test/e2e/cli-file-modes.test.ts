import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { MemoryKeyValueBackend, SettingsStore } from '../../src/main/core/settings/settings-store'
import { sandboxCliEnv, startCliProcess } from '../helpers/cli-process'
import { makeTempDir } from '../helpers/cache-test-helpers'
import { startTestSandbox } from '../helpers/sandbox'
import { writeSettingsFile } from '../helpers/settings-file'

/** Every folder and file under `root` (not `root` itself), with its permission bits in octal. */
function modesUnder(root: string): Map<string, string> {
  const modes = new Map<string, string>()
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name)
      modes.set(relative(root, path), (statSync(path).mode & 0o777).toString(8))
      if (entry.isDirectory()) walk(path)
    }
  }
  walk(root)
  return modes
}

/**
 * Issue 31's acceptance, run from source on Linux: after `cli sync` and `cli export` of a profile, every folder
 * RosterDesk created in the data folder is 0700 and every file 0600 (the catalog, its -wal and -shm, snapshots,
 * change logs), under the usual umask 022; the export file is 0600 and the folder the clerk chose keeps its mode.
 */
describe.skipIf(process.platform === 'win32')('CLI: what sync and export create is the user’s only', () => {
  let sandbox: SandboxHandle
  let dir: string
  let dataDir: string
  let exportDir: string
  let cleanup: () => void
  let umask: number

  beforeAll(async () => {
    umask = process.umask(0o022)
    sandbox = await startTestSandbox({ size: 120, seed: 31 })
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-cli-modes-'))
    dataDir = join(dir, 'RosterDesk')
    exportDir = join(dir, 'Exports')
    mkdirSync(dataDir)
    mkdirSync(exportDir)
    chmodSync(exportDir, 0o755)
    // The app's settings file, as the app writes it: a profile on Staging at the sandbox.
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
      }).ok,
    ).toBe(true)
    writeSettingsFile(dataDir, backend)
  })
  afterAll(async () => {
    process.umask(umask)
    await sandbox.close()
    cleanup()
  })

  it('creates every folder 0700 and every file 0600', async () => {
    const env = { ...sandboxCliEnv(sandbox), ROSTERDESK_USER_DATA_DIR: dataDir }
    // Two syncs: the second writes a change log beside its snapshot.
    for (const tokens of [env, { ...env, ...sandboxCliEnv(sandbox) }]) {
      const sync = await startCliProcess(['sync', '--profile', 'Acme Ltd', '--json'], tokens).done
      expect(sync.code, sync.stderr).toBe(0)
    }
    const out = join(exportDir, 'Roster.xlsx')
    const exported = await startCliProcess(
      ['export', '--profile', 'Acme Ltd', '--out', out, '--columns', 'lastName,annualSalary'],
      env,
    ).done
    expect(exported.code, exported.stderr).toBe(0)

    const created = modesUnder(dataDir)
    created.delete('settings.json') // the test's, written as the app would
    const paths = [...created.keys()]
    // What two syncs of a profile create: its folders, the catalog, a snapshot and a change log; the user's cache
    // key (decision 064); the export, its line in the export record.
    const cache = 'profiles/p2/cache'
    expect(paths.filter((path) => !/\.sqlite\.(snapshots|changes)\//.test(path)).sort()).toEqual([
      'cache.key',
      'export-record.jsonl',
      'profiles',
      'profiles/p2',
      cache,
      `${cache}/employees.sqlite`,
      `${cache}/employees.sqlite.changes`,
      `${cache}/employees.sqlite.snapshots`,
    ])
    expect(paths.filter((path) => path.startsWith(`${cache}/employees.sqlite.snapshots/`))).toHaveLength(1)
    expect(paths.filter((path) => path.startsWith(`${cache}/employees.sqlite.changes/`))).toHaveLength(1)
    const wrong = [...created].filter(([path, mode]) => {
      const isFolder = statSync(join(dataDir, path)).isDirectory()
      return mode !== (isFolder ? '700' : '600')
    })
    expect(wrong).toEqual([])

    expect(modesUnder(exportDir)).toEqual(new Map([['Roster.xlsx', '600']]))
    expect((statSync(exportDir).mode & 0o777).toString(8)).toBe('755')
  })
})
