import Database from 'better-sqlite3'
import { afterEach } from 'vitest'

const opened = new Set<Database.Database>()
afterEach(() => {
  for (const db of opened) db.close()
  opened.clear()
})

/**
 * A read-only connection of the test's own to a snapshot file, to check what a sync wrote as an outside tool
 * would: the app reads snapshots only through SnapshotReader's typed reads. Closed after each test.
 */
export function rawSnapshot(reader: { readonly path: string } | null | undefined): Database.Database {
  if (reader === null || reader === undefined) throw new Error('the cache has no snapshot')
  const db = new Database(reader.path, { readonly: true, fileMustExist: true })
  opened.add(db)
  return db
}
