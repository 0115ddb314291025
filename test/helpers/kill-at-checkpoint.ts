/**
 * A child process for the crash tests (test/e2e/crash-sync.test.ts): `cli sync` exactly as the CLI runs it
 * (runSyncCommand), killing itself with SIGKILL, as a power cut would, when the run passes a named step.
 *
 *   node --import tsx test/helpers/kill-at-checkpoint.ts <checkpoint>[:<nth>] <sync arguments…>
 *
 * `nth` (default 1) counts passes of a step that repeats ('page-staged': once a page).
 */
import { createLogger } from '../../src/main/core/log/logger'
import { SYNC_CHECKPOINTS, type SyncCheckpoint } from '../../src/main/core/sync/sync-options'
import { runSyncCommand } from '../../src/main/cli/sync-command'
import { TEST_CACHE_KEY } from './test-cache-key'

const [target, ...args] = process.argv.slice(2)
const [step, nth] = (target ?? '').split(':')
if (!SYNC_CHECKPOINTS.includes(step as SyncCheckpoint)) throw new Error(`unknown checkpoint ${target}`)
let passes = 0

void runSyncCommand(args, {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  platform: process.platform,
  logger: createLogger(() => undefined),
  cacheKey: () => TEST_CACHE_KEY,
  syncCheckpoint: (passed) => {
    if (passed !== step) return
    passes += 1
    if (passes === Number(nth ?? 1)) process.kill(process.pid, 'SIGKILL')
  },
}).then((code) => process.exit(code))
