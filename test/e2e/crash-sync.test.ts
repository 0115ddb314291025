import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCacheDatabase } from '../../src/main/core/cache/cache-database'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { sandboxCliEnv, sandboxServiceArgs } from '../helpers/cli-process'
import { startTestSandbox } from '../helpers/sandbox'
import { makeTempDir } from '../unit/cache/cache-test-helpers'
import { createRng } from '../../src/main/sandbox/random'
import { rawSnapshot } from '../helpers/raw-snapshot'

/**
 * Kills a syncing CLI process with SIGKILL at moments spread over the whole run (from the first request to past
 * the commit) and checks, each time, that the cache opens, passes integrity_check and holds either the previous
 * snapshot or the new one in full: never a mix, never a damaged file.
 */

const ROOT = resolve(__dirname, '..', '..')
const KILLS = 26
const SIZE = 3000

interface Outcome {
  readonly offsetMs: number
  readonly killed: boolean
  readonly holds: 'previous' | 'new'
}

describe('a sync killed at any moment', () => {
  let sandbox: SandboxHandle
  let dir: string
  let cleanup: () => void
  let db: string

  beforeAll(async () => {
    // Pages of 100 at most (the CLI asks for the largest page served), so the run spans 30 pages to kill it in.
    sandbox = await startTestSandbox({
      size: SIZE,
      seed: 21,
      behaviours: { latencyMs: 40, maxPageSize: 100 },
    })
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-crash-'))
    db = join(dir, 'cache.db')
  })
  afterAll(async () => {
    await sandbox.close()
    cleanup()
  })

  /** Starts `cli sync`; resolves with the time of its first list request and its exit. */
  function startSync(): { child: ChildProcess; firstRequest: Promise<number>; exit: Promise<number | null> } {
    const env = sandboxCliEnv(sandbox)
    const before = sandbox.stats().listRequests
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/main/cli/index.ts',
        'sync',
        ...sandboxServiceArgs(sandbox),
        '--db',
        db,
        '--page-size',
        '100',
        '--json',
      ],
      {
        cwd: ROOT,
        env: {
          PATH: process.env['PATH'] ?? '',
          ...env,
        },
        stdio: 'ignore',
      },
    )
    const exit = new Promise<number | null>((resolvePromise) =>
      child.once('exit', (code) => resolvePromise(code)),
    )
    const firstRequest = new Promise<number>((resolvePromise) => {
      const timer = setInterval(() => {
        if (sandbox.stats().listRequests > before || child.exitCode !== null || child.signalCode !== null) {
          clearInterval(timer)
          resolvePromise(performance.now())
        }
      }, 1)
    })
    return { child, firstRequest, exit }
  }

  /** Changes the sandbox's employees between runs (one churned list request), so old and new snapshots differ. */
  async function changeServiceData(): Promise<void> {
    sandbox.setBehaviours({ churn: { add: 2, remove: 1, listRequests: 1 }, latencyMs: 0 })
    const { accessToken } = sandbox.issueTokens()
    const response = await fetch(`${sandbox.baseUrl}/employees/list?page=1&limit=1`, {
      headers: { authorization: `Bearer ${accessToken}` },
    })
    await response.text()
    sandbox.setBehaviours({ churn: null, latencyMs: 40 })
  }

  /** Opens the cache as the app would, checks its integrity, and returns its rows as canonical JSON. */
  function openAndRead(): string[] {
    const cache = openCacheDatabase(db)
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

  it(`survives ${KILLS} SIGKILLs spread over the run, commit included`, async () => {
    // A complete first sync gives every kill a previous snapshot. The first run also warms tsx's transform cache
    // and so runs slower than the rest; a second complete run measures how long a run really takes.
    let runMs = Infinity
    for (let warm = 0; warm < 2; warm++) {
      if (warm > 0) await changeServiceData()
      const baseline = startSync()
      const started = await baseline.firstRequest
      expect(await baseline.exit).toBe(0)
      runMs = Math.min(runMs, performance.now() - started)
      expect(openAndRead()).toEqual(serviceRows())
    }

    const random = createRng(99)
    const outcomes: Outcome[] = []
    for (let i = 0; i < KILLS; i++) {
      const previous = openAndRead()
      await changeServiceData()
      const next = serviceRows()
      expect(next).not.toEqual(previous)
      // Stratified over [0, 1.15 × run]: every stretch of the run gets kills, the last ones at or after the commit.
      const offsetMs = ((i + random()) / KILLS) * runMs * 1.15
      const run = startSync()
      let exitedAt = Infinity
      void run.exit.then(() => (exitedAt = performance.now()))
      const started = await run.firstRequest
      await new Promise((resolvePromise) => setTimeout(resolvePromise, offsetMs))
      const killed = run.child.exitCode === null && run.child.kill('SIGKILL')
      await run.exit
      // The run's length moves with the machine's load (other test files share the cores): a run that finished
      // says how long runs take now, and one still running past the estimate says it is longer, so the later,
      // commit-time kills stay at the commit rather than all before or all after it.
      if (!killed) runMs = exitedAt - started
      else if (offsetMs > runMs) runMs = offsetMs
      const rows = openAndRead()
      const holds =
        rows.length === next.length && rows.every((row, k) => row === next[k]) ? 'new' : 'previous'
      if (holds === 'previous')
        expect(rows, `kill ${i} at ${offsetMs.toFixed(0)} ms left a mix`).toEqual(previous)
      if (!killed) expect(holds, `run ${i} finished but the cache does not hold its snapshot`).toBe('new')
      outcomes.push({ offsetMs, killed, holds })
    }
    const killedRuns = outcomes.filter((outcome) => outcome.killed)
    expect(killedRuns.length, JSON.stringify(outcomes)).toBeGreaterThanOrEqual(20)
    expect(outcomes.some((outcome) => outcome.holds === 'previous')).toBe(true)
    expect(outcomes.some((outcome) => outcome.holds === 'new')).toBe(true)
  }, 150_000)
})
