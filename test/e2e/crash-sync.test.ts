import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCacheDatabase } from '../../src/main/core/cache/cache-database'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { childProgramArgs, sandboxCliEnv, sandboxServiceArgs } from '../helpers/cli-process'
import { startTestSandbox } from '../helpers/sandbox'
import { makeTempDir } from '../helpers/cache-test-helpers'
import { rawSnapshot } from '../helpers/raw-snapshot'
import { TEST_CACHE_KEY, writeTestKeyFile } from '../helpers/test-cache-key'

/**
 * Kills a syncing CLI process with SIGKILL at each named step of its run (SYNC_CHECKPOINTS, sync-options.ts: the
 * run logged, pages staged, every list walked, the change log written, the snapshot sealed, the catalog swapped)
 * and checks, each time, that the cache opens, passes integrity_check and holds the previous snapshot whole,
 * or, once the catalog was swapped, the new one: never a mix, never a damaged file. A named step, not a moment
 * measured on the clock, so every step is hit whatever the machine's load.
 */

const ROOT = resolve(__dirname, '..', '..')
const SIZE = 3000

/** Where each run is killed (`step` or `step:nth`), and what the cache must hold after it. */
const KILLS: ReadonlyArray<{ readonly at: string; readonly holds: 'previous' | 'new' }> = [
  { at: 'run-logged', holds: 'previous' },
  { at: 'page-staged:1', holds: 'previous' },
  { at: 'page-staged:15', holds: 'previous' },
  { at: 'lists-walked', holds: 'previous' },
  { at: 'change-log-written', holds: 'previous' },
  { at: 'sealed', holds: 'previous' },
  { at: 'committed', holds: 'new' },
]

describe('a sync killed at any step', () => {
  let sandbox: SandboxHandle
  let dir: string
  let cleanup: () => void
  let db: string
  let dataDir: string

  beforeAll(async () => {
    // Pages of 100 at most (the CLI asks for the largest page served), so the run stages 30 pages.
    sandbox = await startTestSandbox({ size: SIZE, seed: 21, behaviours: { maxPageSize: 100 } })
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-crash-'))
    db = join(dir, 'cache.db')
    dataDir = join(dir, 'data')
    writeTestKeyFile(dataDir)
  })
  afterAll(async () => {
    await sandbox.close()
    cleanup()
  })

  /** `cli sync` into the cache, killed at `at` (kill-at-checkpoint.ts) or run to its end; resolves with how it ended. */
  function sync(at: string | null): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const entry =
      at === null ? [...childProgramArgs('cli'), 'sync'] : [...childProgramArgs('kill-at-checkpoint'), at]
    const child = spawn(
      process.execPath,
      [...entry, ...sandboxServiceArgs(sandbox), '--db', db, '--page-size', '100', '--json'],
      {
        cwd: ROOT,
        // Its own data folder, holding the tests' key file (never the user's home).
        env: {
          PATH: process.env['PATH'] ?? '',
          ROSTERDESK_USER_DATA_DIR: dataDir,
          ...sandboxCliEnv(sandbox),
        },
        stdio: 'ignore',
      },
    )
    return new Promise((resolvePromise, reject) => {
      child.once('error', reject)
      child.once('exit', (code, signal) => resolvePromise({ code, signal }))
    })
  }

  /** Changes the sandbox's employees between runs (one churned list request), so old and new snapshots differ. */
  async function changeServiceData(): Promise<void> {
    sandbox.setBehaviours({ churn: { add: 2, remove: 1, listRequests: 1 } })
    const { accessToken } = sandbox.issueTokens()
    const response = await fetch(`${sandbox.baseUrl}/employees/list?page=1&limit=1`, {
      headers: { authorization: `Bearer ${accessToken}` },
    })
    await response.text()
    sandbox.setBehaviours({ churn: null })
  }

  /** Opens the cache as the app would, checks its integrity, and returns its rows as canonical JSON. */
  function openAndRead(): string[] {
    const cache = openCacheDatabase(db, { key: TEST_CACHE_KEY })
    try {
      expect(cache.db.pragma('integrity_check', { simple: true })).toBe('ok')
      const reader = cache.currentSnapshot()
      expect(reader).not.toBeNull()
      expect(rawSnapshot(reader).pragma('integrity_check', { simple: true })).toBe('ok')
      // Nothing but the current snapshot survives the sweep that opening runs.
      expect(readdirSync(cache.snapshotDirectory)).toEqual([basename(reader!.path)])
      const rows = rawSnapshot(reader)
        .prepare('SELECT row_json FROM employees ORDER BY uuid')
        .pluck()
        .all() as string[]
      expect(rows).toHaveLength(cache.employeeCount())
      return rows
    } finally {
      cache.close()
    }
  }

  const serviceRows = (): string[] =>
    sandbox
      .allEmployees()
      .sort((a, b) => (String(a['UUID']) < String(b['UUID']) ? -1 : 1))
      .map((row) => JSON.stringify(row))

  it('survives a SIGKILL at every named step of the run, the commit included', async () => {
    // A complete first sync gives every kill a previous snapshot.
    expect(await sync(null)).toEqual({ code: 0, signal: null })
    expect(openAndRead()).toEqual(serviceRows())

    for (const kill of KILLS) {
      const previous = openAndRead()
      await changeServiceData()
      const next = serviceRows()
      expect(next).not.toEqual(previous)
      expect(await sync(kill.at), `the run killed at ${kill.at}`).toEqual({ code: null, signal: 'SIGKILL' })
      expect(openAndRead(), `the cache after a kill at ${kill.at}`).toEqual(
        kill.holds === 'new' ? next : previous,
      )
    }

    // The next run, over whatever the kills left (debris, a stale lock), completes.
    await changeServiceData()
    expect(await sync(null)).toEqual({ code: 0, signal: null })
    expect(openAndRead()).toEqual(serviceRows())
  }, 150_000)
})
