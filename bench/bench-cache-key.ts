import { CacheKey } from '../src/main/core/sqlite/cache-key'

/**
 * The benches' cache key: fixed, so a cache one bench process seeds another opens (a user's is random,
 * CacheKey.create); the cost of the cipher does not depend on the key's bytes.
 */
export const BENCH_CACHE_KEY = CacheKey.fromHex('b3c4'.repeat(16))
