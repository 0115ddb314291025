import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { openCacheDatabase } from '../../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../../src/main/core/cache/cache-database'
import { makeTempDir } from './cache-test-helpers'
import { TEST_CACHE_KEY } from './test-cache-key'

/** A cache opened in a directory of its own for the current test; read only inside tests and hooks. */
export interface TempCache {
  readonly cache: CacheDatabase
  readonly dir: string
}

/**
 * Opens a fresh cache in a temporary directory before each test of the calling block, and closes and removes it
 * after the test.
 */
export function useTempCache(prefix?: string): TempCache {
  let opened: { cache: CacheDatabase; dir: string; cleanup: () => void } | undefined
  beforeEach(() => {
    const { dir, cleanup } = makeTempDir(prefix)
    opened = { cache: openCacheDatabase(join(dir, 'cache.db'), { key: TEST_CACHE_KEY }), dir, cleanup }
  })
  afterEach(() => {
    opened?.cache.close()
    opened?.cleanup()
    opened = undefined
  })
  const current = () => {
    if (opened === undefined) throw new Error('the temporary cache is open only during a test')
    return opened
  }
  return {
    get cache() {
      return current().cache
    },
    get dir() {
      return current().dir
    },
  }
}
