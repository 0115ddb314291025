import type Database from 'better-sqlite3-multiple-ciphers'
import { onTestFinished } from 'vitest'
import { rawDatabase } from './test-cache-key'

/**
 * A read-only connection of the test's own to a snapshot file, to check what a sync wrote as an outside tool
 * would: the app reads snapshots only through SnapshotReader's typed reads. Closed after each test.
 */
export function rawSnapshot(reader: { readonly path: string } | null | undefined): Database.Database {
  if (reader === null || reader === undefined) throw new Error('the cache has no snapshot')
  const db = rawDatabase(reader.path, { readonly: true, fileMustExist: true })
  // Closed when the test ends: registered on the test, since without isolation this module is evaluated once per
  // worker, and a module-level afterEach would belong to the first file that imported it only.
  onTestFinished(() => {
    db.close()
  })
  return db
}
