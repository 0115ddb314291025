import { spawn } from 'node:child_process'
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { processIsAlive, WriterLock, writerLockPathOf } from '../../../../../src/main/core/cache/writer-lock'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { makeTempDir } from '../../../../helpers/cache-test-helpers'

const NOW = new Date('2026-11-25T14:05:00Z')
const utcTime = (date: Date) => date.toISOString().slice(11, 16)

describe('WriterLock', () => {
  let dir: string
  let cleanup: () => void
  let catalog: string
  beforeEach(() => {
    ;({ dir, cleanup } = makeTempDir('rosterdesk-lock-'))
    catalog = join(dir, 'employees.sqlite')
  })
  afterEach(() => cleanup())

  it('is exclusive: the second writer is told who writes and since when, and gets in once it is released', () => {
    const first = WriterLock.acquire(catalog, NOW, { pid: 4242, isAlive: () => true, formatTime: utcTime })
    expect(JSON.parse(readFileSync(writerLockPathOf(catalog), 'utf8'))).toMatchObject({
      pid: 4242,
      since: NOW.toISOString(),
    })
    let refused: unknown
    try {
      WriterLock.acquire(catalog, new Date(NOW.getTime() + 60_000), {
        isAlive: () => true,
        formatTime: utcTime,
      })
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(RosterDeskError)
    expect((refused as RosterDeskError).code).toBe('busy')
    expect((refused as RosterDeskError).message).toBe(
      'Another RosterDesk sync is writing these saved employees (pid 4242, since 14:05). Wait for it to finish, then sync again if you still need to.',
    )
    first.release()
    expect(existsSync(writerLockPathOf(catalog))).toBe(false)
    WriterLock.acquire(catalog, NOW).release()
  })

  it('takes over the lock of a process that is gone (killed, power cut)', async () => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
    const pid = child.pid ?? 0
    await new Promise((resolve) => child.once('exit', resolve))
    expect(processIsAlive(pid)).toBe(false)
    WriterLock.acquire(catalog, NOW, { pid })
    const next = WriterLock.acquire(catalog, NOW)
    expect(JSON.parse(readFileSync(writerLockPathOf(catalog), 'utf8'))).toMatchObject({ pid: process.pid })
    next.release()
  })

  it('respects a live process, and judges a lock from another computer by age only', () => {
    WriterLock.acquire(catalog, NOW, { pid: process.pid })
    expect(() => WriterLock.acquire(catalog, NOW)).toThrow(/pid \d+, since/)
    writeFileSync(
      writerLockPathOf(catalog),
      JSON.stringify({ pid: 1, host: 'payroll-pc-7', since: NOW.toISOString() }),
    )
    expect(() => WriterLock.acquire(catalog, new Date(NOW.getTime() + 3_600_000))).toThrow(
      /\(pid 1 on payroll-pc-7, since/,
    )
    WriterLock.acquire(catalog, new Date(NOW.getTime() + 25 * 3_600_000)).release()
  })

  it('treats an empty lock (its writer died before writing it) as live for a moment, then as stale', () => {
    const path = writerLockPathOf(catalog)
    writeFileSync(path, '')
    expect(() => WriterLock.acquire(catalog, new Date())).toThrow(/Another RosterDesk sync is writing/)
    const old = new Date(Date.now() - 60_000)
    utimesSync(path, old, old)
    WriterLock.acquire(catalog, new Date()).release()
  })
})
