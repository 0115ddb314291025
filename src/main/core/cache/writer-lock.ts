import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
import { RosterDeskError } from '../errors'
import { OWNER_FILE_MODE } from '../owner-only'

/**
 * One writer per cache, across processes: the app and a scheduled `cli sync` on the same cache must not both
 * build a snapshot. The lock is a file beside the catalog, created with O_EXCL (atomic on every local file system)
 * and holding who took it, so the one refused can say whom it waits for. A lock whose process is gone (killed,
 * power cut) is stale and is taken over; a lock from another computer (a cache on a network share) is never
 * judged by pid, only by age, since its pid means nothing here. A pid reused by an unrelated process keeps a
 * stale lock until that process ends: the price of never judging a live writer by timestamps.
 */

export interface WriterLockOwner {
  readonly pid: number
  readonly host: string
  /** ISO 8601. */
  readonly since: string
}

/** A lock file that never got its content (its writer died between create and write) is stale after this. */
const EMPTY_LOCK_GRACE_MS = 10_000
/** A lock from another computer is judged stale only after this long without its run finishing. */
const FOREIGN_LOCK_STALE_MS = 24 * 60 * 60 * 1000

export function writerLockPathOf(catalogPath: string): string {
  return `${catalogPath}.sync-lock`
}

export interface WriterLockDeps {
  readonly pid?: number
  readonly host?: string
  /** Whether a process with this id is alive on this computer. */
  readonly isAlive?: (pid: number) => boolean
  /** How the refusal shows the owner's start time ("since 14:05"); the computer's zone by default. */
  readonly formatTime?: (date: Date) => string
}

export class WriterLock {
  private released = false

  private constructor(readonly path: string) {}

  /**
   * Takes the lock or refuses with 'busy' naming the live owner. A stale lock (owner dead, or unreadable and
   * old) is removed and taken over, once.
   */
  static acquire(catalogPath: string, now: Date, deps: WriterLockDeps = {}): WriterLock {
    const path = writerLockPathOf(catalogPath)
    const owner: WriterLockOwner = {
      pid: deps.pid ?? process.pid,
      host: deps.host ?? hostname(),
      since: now.toISOString(),
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      let fd: number
      try {
        fd = openSync(path, 'wx', OWNER_FILE_MODE)
      } catch (error) {
        if (!isExists(error)) throw error
        const current = readOwner(path)
        if (isStale(path, current, now, deps)) {
          rmSync(path, { force: true })
          continue
        }
        throw busyError(current, deps)
      }
      try {
        writeSync(fd, JSON.stringify(owner))
      } finally {
        closeSync(fd)
      }
      return new WriterLock(path)
    }
    throw busyError(readOwner(path), deps)
  }

  /** Lets the next writer in. Safe to call more than once. */
  release(): void {
    if (this.released) return
    this.released = true
    rmSync(this.path, { force: true })
  }
}

function isExists(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'EEXIST'
}

/** The lock's owner, or undefined when the file is empty, half-written or gone. */
export function readOwner(path: string): WriterLockOwner | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'))
    if (typeof value !== 'object' || value === null) return undefined
    const { pid, host, since } = value as Record<string, unknown>
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return undefined
    if (typeof host !== 'string' || typeof since !== 'string' || Number.isNaN(Date.parse(since)))
      return undefined
    return { pid, host, since }
  } catch {
    return undefined
  }
}

function isStale(path: string, owner: WriterLockOwner | undefined, now: Date, deps: WriterLockDeps): boolean {
  if (owner === undefined) return ageOf(path, now) > EMPTY_LOCK_GRACE_MS
  if (owner.host !== (deps.host ?? hostname())) {
    return now.getTime() - Date.parse(owner.since) > FOREIGN_LOCK_STALE_MS
  }
  return !(deps.isAlive ?? processIsAlive)(owner.pid)
}

function ageOf(path: string, now: Date): number {
  try {
    return now.getTime() - statSync(path).mtimeMs
  } catch {
    return Number.POSITIVE_INFINITY
  }
}

/** Signal 0 checks existence only; EPERM means alive but someone else's. */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return typeof error === 'object' && error !== null && 'code' in error && error.code === 'EPERM'
  }
}

function localTime(date: Date): string {
  return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false })
}

function busyError(owner: WriterLockOwner | undefined, deps: WriterLockDeps): RosterDeskError {
  const who =
    owner === undefined
      ? ''
      : ` (pid ${owner.pid}${owner.host === (deps.host ?? hostname()) ? '' : ` on ${owner.host}`}, since ${(
          deps.formatTime ?? localTime
        )(new Date(owner.since))})`
  return new RosterDeskError(
    'busy',
    `Another RosterDesk sync is writing these saved employees${who}. Wait for it to finish, then sync again if you still need to.`,
    {
      detail:
        owner === undefined ? 'writer lock held (owner unreadable)' : `writer lock ${JSON.stringify(owner)}`,
    },
  )
}
