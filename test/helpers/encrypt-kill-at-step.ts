/**
 * A child process for the migration's crash test (test/unit/main/core/cache/encrypt-plain-caches.test.ts): the
 * encryption of a profile's plain caches, killing itself with SIGKILL, as a power cut would, when it passes a named
 * step (`nth` counts passes of a step that repeats per file, 1 by default).
 *
 *   node --import tsx test/helpers/encrypt-kill-at-step.ts <cache folder> <key hex> <step>[:<nth>]
 */
import {
  encryptPlainCaches,
  ENCRYPTION_STEPS,
  type EncryptionStep,
} from '../../src/main/core/cache/encrypt-plain-caches'
import { CacheKey } from '../../src/main/core/sqlite/cache-key'

const [cacheDir, keyHex, target] = process.argv.slice(2)
const [step, nth] = (target ?? '').split(':')
if (cacheDir === undefined || keyHex === undefined || !ENCRYPTION_STEPS.includes(step as EncryptionStep)) {
  throw new Error(`usage: <cache folder> <key hex> <step>[:<nth>] (got ${process.argv.slice(2).join(' ')})`)
}
let passes = 0
encryptPlainCaches(cacheDir, CacheKey.fromHex(keyHex), {
  checkpoint: (passed) => {
    if (passed !== step) return
    passes += 1
    if (passes === Number(nth ?? 1)) process.kill(process.pid, 'SIGKILL')
  },
})
// Reached only when the step never came: the test reads this exit code as "not killed".
process.exit(3)
