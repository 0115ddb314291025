import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { QueryResult } from '../../../../../src/shared/domain/query'
import { cacheFoldersAt } from '../../../../../src/main/core/cache/cache-folders'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend } from '../../../../../src/main/core/settings/settings-store'
import { CACHE_FILE_NAME, FIRST_PROFILE_ID } from '../../../../../src/main/core/settings/profile-store'
import type { CacheKey } from '../../../../../src/main/core/sqlite/cache-key'
import { sandbox, startApp, tempDir } from '../../../../helpers/app-core-under-test'
import { employee, seedSnapshot } from '../../../../helpers/seed-snapshot'

/**
 * The cache's own writers as the version before issue 34 ran them: every writer hands its key to `openSqlite` and
 * nothing else, and `openSqlite` without one writes a plain SQLite file, what that version wrote.
 */
const BEFORE_ISSUE_34 = { key: undefined as unknown as CacheKey }

/** Every file under `folder`, recursively. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile())
}

describe('a cache an earlier version wrote in clear, at the first start of this one (issue 34, point 1)', () => {
  it('is encrypted before the session opens it, every employee kept', async () => {
    const dataDir = tempDir()
    const cacheDir = cacheFoldersAt(dataDir).cacheDir(FIRST_PROFILE_ID)
    mkdirSync(cacheDir, { recursive: true })
    const plain = openCacheDatabase(join(cacheDir, CACHE_FILE_NAME), BEFORE_ISSUE_34)
    const names = ['Quarrington', 'Vasquez-Obi', 'Zebedee']
    await seedSnapshot(
      plain,
      names.map((name, i) => employee(`u-${i}`, 'Ana', name, 'active')),
    )
    plain.close()
    const header = (path: string) => readFileSync(path).subarray(0, 15).toString('latin1')
    expect(filesUnder(cacheDir).some((path) => header(path) === 'SQLite format 3')).toBe(true)

    const app = await startApp(
      await sandbox({ size: 3, seed: 34 }),
      dataDir,
      new MemoryKeyValueBackend(),
      new MemorySecretStore(),
    )
    const rows = (await app.invoke('employees:query', { limit: 10 })) as QueryResult
    expect(rows.rows.map((row) => row['lastName']).sort()).toEqual(names)
    for (const path of filesUnder(cacheDir)) {
      expect(header(path), path).not.toBe('SQLite format 3')
      for (const name of names) expect(readFileSync(path).includes(name), path).toBe(false)
    }
    expect(app.log.some((line) => line.includes('damaged'))).toBe(false)
  })
})
