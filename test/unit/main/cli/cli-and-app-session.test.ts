import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { CacheCommandIo } from '../../../../src/main/cli/cache-command-args'
import { runExportCommand } from '../../../../src/main/cli/export-command'
import { runSyncCommand } from '../../../../src/main/cli/sync-command'
import { runSearchCommand } from '../../../../src/main/cli/search-command'
import { CacheKey } from '../../../../src/main/core/sqlite/cache-key'
import { systemClock } from '../../../../src/main/core/clock'
import type { ExportContext } from '../../../../src/main/core/export/export-runner'
import { inlineRunners, type SessionRunners } from '../../../../src/main/core/session/session-runners'
import { MemorySecretStore } from '../../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../src/main/core/settings/settings-store'
import { runSync } from '../../../../src/main/core/sync/sync-engine'
import type { SyncStartOptions } from '../../../../src/main/core/sync/sync-service'
import { CaptureLogger } from '../../../helpers/capture-logger'
import { sandbox, startApp, syncNow, tempDir } from '../../../helpers/app-core-under-test'
import { writeSettingsFile } from '../../../helpers/settings-file'
import { TEST_CACHE_KEY } from '../../../helpers/test-cache-key'

/** What the sessions asked their runners for: each sync's start options and each export's context. */
interface Asked {
  readonly syncs: SyncStartOptions[]
  readonly exports: ExportContext[]
}

/**
 * `runners` as they are, recording what each sync starts with (without its signal and listeners) and each view
 * export's context: the options and the context the session composed, on their way to the work.
 */
function recording(runners: SessionRunners, asked: Asked): SessionRunners {
  return {
    ...runners,
    sync: (deps) => {
      const run =
        runners.sync?.(deps) ??
        ((options) => runSync({ ...deps, clock: systemClock, random: Math.random }, options))
      return (options) => {
        const { signal: _signal, onProgress: _onProgress, onStart: _onStart, ...start } = options
        asked.syncs.push(start)
        return run(options)
      }
    },
    exports: (cache, queries) => {
      const runner = runners.exports(cache, queries)
      return {
        ...runner,
        writeView: (job, signal) => {
          asked.exports.push(job.context)
          return runner.writeView(job, signal)
        },
      }
    },
  }
}

/** Runs a CLI command in-process with `runners` as its session's runners. */
async function cli(
  command: (args: readonly string[], io: CacheCommandIo) => Promise<number>,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  runners: SessionRunners,
): Promise<{ code: number; stderr: string }> {
  const stderr = new PassThrough()
  let text = ''
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
  const io: CacheCommandIo = {
    stdout: new PassThrough(),
    stderr,
    env,
    platform: 'linux',
    logger: new CaptureLogger(),
    runners,
    cacheKey: () => TEST_CACHE_KEY,
  }
  return { code: await command(args, io), stderr: text }
}

const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version

describe('the CLI and the app open their sessions through one composition', () => {
  it('start the same sync, the environment name included, and export with the same context', async () => {
    const service = await sandbox({ size: 40, seed: 3 })
    const dataDir = tempDir()
    const backend = new MemoryKeyValueBackend()
    // A client company on Staging, with settings that differ from every default a sync would fall back to.
    const settings = new SettingsStore(backend)
    const acme = settings.profiles.create('Acme Ltd')
    settings.profiles.setActive(acme.id)
    expect(
      settings.update({
        environment: 'staging',
        baseUrls: { staging: service.baseUrl },
        clientId: service.credentials.clientId,
        redirectUri: service.credentials.redirectUri,
        tenantId: service.credentials.tenantId,
        pageSize: 25,
        concurrency: 2,
        syncScope: 'active',
        requestTimeoutSeconds: 20,
        syncDeadlineMinutes: 30,
        maxEmployees: 5000,
      }).ok,
    ).toBe(true)

    // The app: signed in to Staging, one sync from the Sync button, one export from the export bar.
    const fromApp: Asked = { syncs: [], exports: [] }
    const app = await startApp(service, dataDir, backend, new MemorySecretStore(), {
      version: VERSION,
      runners: (onWorker) => recording(onWorker, fromApp),
    })
    await app.invoke('settings:set-client-secret', service.credentials.clientSecret)
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in', environment: 'staging' })
    expect(await syncNow(app)).toMatchObject({ status: 'complete' })
    app.savePath.next = join(dataDir, 'app.xlsx')
    const request = { kind: 'view', query: {}, columns: ['lastName'], format: 'xlsx' }
    expect(await app.invoke('export:start', request)).toMatchObject({ status: 'written' })
    await app.close()
    writeSettingsFile(dataDir, backend)

    // The CLI, on the same profile's cache: an export of what the app synced, then a sync of its own.
    const fromCli: Asked = { syncs: [], exports: [] }
    const runners = recording(inlineRunners, fromCli)
    const env = {
      ROSTERDESK_CLIENT_SECRET: service.credentials.clientSecret,
      ROSTERDESK_ACCESS_TOKEN: service.issueTokens().accessToken,
    }
    const profile = ['--profile', 'Acme Ltd', '--data-dir', dataDir]
    const out = join(dataDir, 'cli.xlsx')
    const exported = await cli(
      runExportCommand,
      [...profile, '--out', out, '--columns', 'lastName'],
      env,
      runners,
    )
    expect(exported.code, exported.stderr).toBe(0)
    const synced = await cli(runSyncCommand, profile, env, runners)
    expect(synced.code, synced.stderr).toBe(0)

    expect(fromApp.syncs).toHaveLength(1)
    expect(fromApp.syncs[0]).toMatchObject({
      environment: 'staging',
      baseUrl: service.baseUrl,
      tenantId: service.credentials.tenantId,
      pageSize: 25,
      concurrency: 2,
      scope: 'active',
      limits: { requestTimeoutSeconds: 20, syncDeadlineMinutes: 30, maxEmployees: 5000 },
    })
    expect(fromCli.syncs).toEqual(fromApp.syncs)

    expect(fromApp.exports).toHaveLength(1)
    expect(fromApp.exports[0]).toMatchObject({
      profile: 'Acme Ltd',
      environment: 'staging',
      tenantId: service.credentials.tenantId,
      statusFilter: '1',
      appVersion: VERSION,
    })
    expect(fromCli.exports).toEqual(fromApp.exports)
  })

  it('--profile on a cache the app keyed in its keychain: refused with what to do, the cache untouched', async () => {
    const service = await sandbox({ size: 30, seed: 9 })
    const dataDir = tempDir()
    const backend = new MemoryKeyValueBackend()
    // The app's own key, in its keychain: not the CLI's (the CLI's is TEST_CACHE_KEY, from its key file).
    const app = await startApp(service, dataDir, backend, new MemorySecretStore(), {
      cacheKey: { key: CacheKey.create(), kept: 'keychain' },
    })
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in' })
    expect(await syncNow(app)).toMatchObject({ status: 'complete', stored: 30 })
    await app.close()
    writeSettingsFile(dataDir, backend)
    const cacheDir = join(dataDir, 'cache')
    const before = fingerprint(cacheDir)

    const env = {
      ROSTERDESK_CLIENT_SECRET: service.credentials.clientSecret,
      ROSTERDESK_ACCESS_TOKEN: service.issueTokens().accessToken,
    }
    const profile = ['--profile', 'Demo', '--data-dir', dataDir, '--base-url', service.baseUrl]
    for (const [command, args] of [
      [runSyncCommand, profile],
      [runSearchCommand, ['--profile', 'Demo', '--data-dir', dataDir]],
    ] as const) {
      const run = await cli(command, args, env, inlineRunners)
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(
        'The saved employees of profile "Demo" cannot be opened with the command line\'s key (cache.key): the app ' +
          'keeps their key in this computer’s keychain, which the command line cannot read (or they are damaged). ' +
          'Nothing was changed; give --db FILE for a cache of the command line’s own.',
      )
    }
    // Nothing set aside, renamed or written: every file as it was.
    expect(fingerprint(cacheDir)).toEqual(before)
  })
})

/** Every file under `folder` with its bytes' hash. */
function fingerprint(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const path = join(entry.parentPath, entry.name)
        return [path.slice(folder.length), createHash('sha256').update(readFileSync(path)).digest('hex')]
      }),
  )
}
