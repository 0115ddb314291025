import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type Database from 'better-sqlite3-multiple-ciphers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readOwner, writerLockPathOf } from '../../src/main/core/cache/writer-lock'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { sandboxCliEnv, sandboxServiceArgs, startCliProcess } from '../helpers/cli-process'
import { startTestSandbox } from '../helpers/sandbox'
import { currentSnapshotPath, makeTempDir } from '../helpers/cache-test-helpers'
import { rawDatabase } from '../helpers/test-cache-key'

const SIZE = 1200

/** What a reader sees at one moment: the snapshot the catalog names and how many employees it holds. */
function readOnce(catalog: string): number | null {
  for (;;) {
    const snapshot = currentSnapshotPath(catalog)
    if (snapshot === null) return null
    let db: Database.Database
    try {
      db = rawDatabase(snapshot, { readonly: true, fileMustExist: true })
    } catch (error) {
      // Between reading the pointer and opening its file, a commit swapped it and swept the old file: a reader
      // that opens by name reads the pointer again (the app's readers hold their file open instead). The same
      // pointer to a missing file is a real fault.
      if (!existsSync(snapshot) && currentSnapshotPath(catalog) !== snapshot) continue
      throw error
    }
    try {
      return Number(db.prepare('SELECT count(*) FROM employees').pluck().get())
    } finally {
      db.close()
    }
  }
}

describe('two writers on one cache: the app and a scheduled CLI sync', () => {
  let sandbox: SandboxHandle
  let dir: string
  let cleanup: () => void
  let db: string
  let args: string[]
  const env = () => sandboxCliEnv(sandbox)

  beforeAll(async () => {
    // Slow pages, so the first writer is still writing when the second arrives.
    sandbox = await startTestSandbox({ size: SIZE, seed: 12, behaviours: { latencyMs: 2500 } })
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-writers-'))
    db = join(dir, 'employees.sqlite')
    args = [
      'sync',
      ...sandboxServiceArgs(sandbox),
      '--db',
      db,
      '--page-size',
      '400',
      '--concurrency',
      '2',
      '--json',
    ]
  })
  afterAll(async () => {
    await sandbox.close()
    cleanup()
  })

  it('the second is refused with who writes and since when; the first completes; readers see whole snapshots', async () => {
    const first = startCliProcess(args, env())
    const lock = writerLockPathOf(db)
    const deadline = Date.now() + 60_000
    // The lock file is created (O_EXCL) and then written: wait for its owner, as a second writer would read it.
    while (readOwner(lock) === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    const owner = readOwner(lock)
    expect(owner?.pid).toBe(first.child.pid)

    const second = await startCliProcess(args, env()).done
    expect(second.code).toBe(1)
    expect(second.stderr).toBe('')
    const refusal = JSON.parse(second.stdout) as { status: string; error: string }
    expect(refusal.status).toBe('failed')
    expect(refusal.error).toMatch(
      new RegExp(
        `Another RosterDesk sync is writing these saved employees \\(pid ${owner?.pid}, since \\d\\d:\\d\\d\\)\\. Wait for it to finish`,
      ),
    )

    // While the first writes and swaps, a reader only ever finds no snapshot yet or the whole new one.
    const seen = new Set<number | null>()
    let finished = false
    const result = first.done.then((r) => {
      finished = true
      return r
    })
    while (!finished) {
      seen.add(readOnce(db))
      await new Promise((r) => setTimeout(r, 5))
    }
    const outcome = await result
    expect(outcome.code, outcome.stderr).toBe(0)
    expect(JSON.parse(outcome.stdout)).toMatchObject({ status: 'complete', stored: SIZE })
    seen.add(readOnce(db))
    expect([...seen].every((count) => count === null || count === SIZE)).toBe(true)
    expect(seen.has(SIZE)).toBe(true)
    expect(existsSync(lock)).toBe(false)

    // A second sync over the first (a swap with a previous snapshot): readers see old or new, both whole.
    sandbox.setBehaviours({ latencyMs: 40 })
    const again = startCliProcess(args, env())
    const during = new Set<number | null>()
    let againDone = false
    const againResult = again.done.then((r) => {
      againDone = true
      return r
    })
    while (!againDone) {
      during.add(readOnce(db))
      await new Promise((r) => setTimeout(r, 5))
    }
    expect((await againResult).code).toBe(0)
    expect([...during]).toEqual([SIZE])
  }, 120_000)

  it('a sync killed with its lock held does not block the next one', async () => {
    const victim = startCliProcess(args, env())
    const lock = writerLockPathOf(db)
    const deadline = Date.now() + 60_000
    // Killed once the lock names it (a lock killed between its create and its write is another case, judged by
    // its age: writer-lock.test.ts).
    while (readOwner(lock) === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    victim.child.kill('SIGKILL')
    await victim.done
    expect(existsSync(lock)).toBe(true)
    sandbox.setBehaviours({ latencyMs: 0 })
    const next = await startCliProcess(args, env()).done
    expect(next.code, next.stderr).toBe(0)
    expect(readOnce(db)).toBe(SIZE)
  }, 120_000)
})
