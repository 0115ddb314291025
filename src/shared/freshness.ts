/**
 * The staleness rule, in one place: the banner that offers a sync reads it, and its tests pin the boundary. Plain
 * functions over milliseconds, so the renderer passes whatever clock it is given (useNow, a test's fake time).
 */

const HOUR_MS = 3_600_000

/**
 * Whether employees last synced at `syncedAt` (ISO 8601, a sync summary's `endedAt`) are old enough to warn about:
 * `staleAfterHours` or more before `now`. A cache that was never synced is not stale (the empty screen already
 * asks for a first sync); a time that cannot be read is, since nothing then vouches for the data.
 */
export function isDataStale(syncedAt: string | undefined, now: number, staleAfterHours: number): boolean {
  if (syncedAt === undefined) return false
  const then = Date.parse(syncedAt)
  if (Number.isNaN(then)) return true
  return now - then >= staleAfterHours * HOUR_MS
}
