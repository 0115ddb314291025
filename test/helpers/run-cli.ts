import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach } from 'vitest'
import type { CacheCommandIo } from '../../src/main/cli/cache-command-args'
import type { PolicyInForce } from '../../src/main/core/policy/policy-in-force'
import { CaptureLogger } from './capture-logger'
import { cliTestConfigHome } from './cli-process'
import { freshNodeBundles } from './fresh-bundles'
import { BUNDLE_ENTRIES } from './test-bundles'
import { TEST_CACHE_KEY } from './test-cache-key'

/** What one CLI command printed and the exit code it returned. */
export interface CommandRun {
  code: number
  stdout: string
  stderr: string
}

/**
 * Runs a CLI command in-process on Linux, with `env` as its whole environment, and captures what it prints;
 * `policy` is the machine policy the dispatcher read at start (none when absent).
 */
export async function runCommand(
  command: (args: readonly string[], io: CacheCommandIo) => Promise<number>,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  policy?: PolicyInForce,
): Promise<CommandRun> {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  const text = { out: '', err: '' }
  stdout.on('data', (chunk: Buffer) => (text.out += chunk.toString('utf8')))
  stderr.on('data', (chunk: Buffer) => (text.err += chunk.toString('utf8')))
  const io: CacheCommandIo = {
    stdout,
    stderr,
    env,
    platform: 'linux',
    logger: new CaptureLogger(),
    cacheKey: () => TEST_CACHE_KEY,
  }
  const code = await command(args, policy === undefined ? io : { ...io, policy })
  return { code, stdout: text.out, stderr: text.err }
}

/** A run of the CLI as a process; `code` is null when it was killed (or timed out) rather than exiting. */
export interface CliProcessRun {
  code: number | null
  stdout: string
  stderr: string
}

const TSX = 'node_modules/.bin/tsx'

/** The test's environment, the CLI's default data folder (and so its log) the test run's own. */
function cliTestEnv(): NodeJS.ProcessEnv {
  return { ...process.env, XDG_CONFIG_HOME: cliTestConfigHome() }
}

/**
 * Runs `npm run --silent cli -- ARGS` the way npm does (tsx on the CLI's source), without npm's own noise, its
 * default data folder the test run's own (cliTestConfigHome).
 */
export function runCliFromSource(args: readonly string[]): Promise<CliProcessRun> {
  return new Promise((done) => {
    execFile(
      TSX,
      [BUNDLE_ENTRIES.cli, ...args],
      { cwd: process.cwd(), env: cliTestEnv(), timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        done({ code, stdout, stderr })
      },
    )
  })
}

/** Beside the core's test bundles (core-worker-bundle.ts), never in `out/`, which the installers pack. */
const CLI_BUNDLE_DIR = resolve(__dirname, '../../.tmp/test-build/cli')

/**
 * Runs the CLI (`npm run cli -- ARGS`) as a process of its own, from its entry bundled as the e2e project's CLI
 * bundles are (cli-bundle.ts: packages from node_modules, each module's own `__dirname`), built once per change
 * of the sources: a process loads one file instead of tsx compiling the CLI's modules (about 1.1 s of CPU a run).
 * Its default data folder is the test run's own (cliTestConfigHome).
 */
export async function runCliProcess(args: readonly string[]): Promise<CliProcessRun> {
  const bundle = await freshNodeBundles({
    entries: { cli: BUNDLE_ENTRIES.cli },
    outdir: CLI_BUNDLE_DIR,
    external: 'all-packages',
    sourceLocations: true,
  })
  return new Promise((done) => {
    execFile(
      process.execPath,
      [bundle('cli'), ...args],
      { cwd: process.cwd(), env: cliTestEnv(), timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        done({ code, stdout, stderr })
      },
    )
  })
}

/** Things a test leaves behind (sandboxes, folders), undone last first after each test of the calling file. */
export interface TestScratch {
  defer(cleanup: () => Promise<void> | void): void
  /** A new empty folder under the system's temp folder, removed after the test. */
  tempDir(prefix: string): string
}

export function useScratch(): TestScratch {
  const cleanups: Array<() => Promise<void> | void> = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return {
    defer: (cleanup) => {
      cleanups.push(cleanup)
    },
    tempDir: (prefix) => {
      const dir = mkdtempSync(join(tmpdir(), prefix))
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
      return dir
    },
  }
}
