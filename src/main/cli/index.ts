// First: every module loaded after it is compiled from (and into) the compile cache.
import './compile-cache'
import type { Logger } from '../core/log/logger'
import type { PolicyInForce } from '../core/policy/policy-in-force'
import { loadMachinePolicy } from '../core/policy/policy-sources'
import { systemPolicySources } from '../core/policy/registry-query'
import { cliLogFile, createCliLogger } from './cli-logger'
import { appDataDir, dataDirFlag } from './data-dir'
import { cacheKeyFilePath, readOrCreateCacheKeyFile } from '../core/secrets/cache-key-file'
import type { CacheKey } from '../core/sqlite/cache-key'

/**
 * The headless CLI: `npm run --silent cli -- <command> [options]`. Each command lives in its own
 * `<command>-command.ts` and is one row of COMMANDS below.
 */

/** What every command receives; commands declare the same shape structurally, so none imports this file. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream
  readonly stderr: NodeJS.WritableStream
  readonly env: NodeJS.ProcessEnv
  readonly platform: NodeJS.Platform
  /** The log: stderr, timestamped, no stack; warnings and errors whole in the data folder's cli.log (cli-logger.ts). */
  readonly logger: Logger
  /** The user's data folder (`--data-dir`, ROSTERDESK_USER_DATA_DIR or the OS's): the log and the export record. */
  readonly dataDir: string
  /**
   * The machine policy, read once before the command runs, as the app reads it at start; every command obeys it
   * (policy-flags.ts). The CLI runs from source, so ROSTERDESK_POLICY_FILE always counts (decision 042).
   */
  readonly policy: PolicyInForce
  /** The user's cache key from `cache.key` in the data folder, made on first use (cache-key-file.ts). */
  readonly cacheKey: () => CacheKey
}

export interface CliCommand {
  /** One line for the help text. */
  readonly summary: string
  /** Resolves with the exit code: 0 success, 1 failure, 2 bad usage. */
  readonly run: (args: readonly string[], io: CliIo) => Promise<number>
}

// Each command's code loads when it runs: a scheduled `export` starts without the sync, sign-in and search modules.
export const COMMANDS: Readonly<Record<string, CliCommand>> = {
  login: {
    summary: 'Sign in through the browser and write the tokens to a file.',
    run: async (args, io) => (await import('./login-command')).runLoginCommand(args, io),
  },
  sync: {
    summary: 'Sync every employee into the cache file (--db).',
    run: async (args, io) => (await import('./sync-command')).runSyncCommand(args, io),
  },
  check: {
    summary: 'Test the connection to the service step by step (proxy, DNS, TCP, TLS, endpoints).',
    run: async (args, io) => (await import('./check-command')).runCheckCommand(args, io),
  },
  search: {
    summary: 'Search the employees in a cache file.',
    run: async (args, io) => (await import('./search-command')).runSearchCommand(args, io),
  },
  status: {
    summary: 'Show what a cache file holds and how its last sync went.',
    run: async (args, io) => (await import('./status-command')).runStatusCommand(args, io),
  },
  changes: {
    summary: 'List the employees the last complete sync added, removed or changed.',
    run: async (args, io) => (await import('./changes-command')).runChangesCommand(args, io),
  },
  export: {
    summary: 'Write the matching employees to an .xlsx or .csv file.',
    run: async (args, io) => (await import('./export-command')).runExportCommand(args, io),
  },
  audit: {
    summary: 'List every file exported, in the app or here (the export record), newest first.',
    run: async (args, io) => (await import('./audit-command')).runAuditCommand(args, io),
  },
  diagnostics: {
    summary:
      'Write a diagnostics file for IT (--out FILE.zip): logs, policy, profiles, runs; nothing personal.',
    run: async (args, io) => (await import('./diagnostics-command')).runDiagnosticsCommand(args, io),
  },
  policy: {
    summary: "Show the machine policy in force (your organisation's settings), or --check a policy file.",
    run: async (args, io) => (await import('./policy-command')).runPolicyCommand(args, io),
  },
}

function helpText(): string {
  const rows = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(10)}${command.summary}`)
  return ['Usage: npm run --silent cli -- <command> [options]', '', 'Commands:', ...rows, ''].join('\n')
}

const argv = process.argv.slice(2)
const dataDir = appDataDir(dataDirFlag(argv), process.env, process.platform)
const logger = createCliLogger(process.stderr, process.env, undefined, cliLogFile(dataDir))
let cacheKey: CacheKey | undefined

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv
  // Not packaged: the CLI runs from source, so ROSTERDESK_POLICY_FILE is honoured.
  const policy = await loadMachinePolicy(systemPolicySources(false))
  if (policy.problem !== undefined) {
    // Said once, as the app shows it; `policy` itself reports it as its answer.
    if (name !== 'policy') process.stderr.write(`Warning: ${policy.problem.message}\n`)
    logger.info(`Machine policy not applied (${policy.problem.detail})`)
  }
  const io: CliIo = {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    platform: process.platform,
    logger,
    dataDir,
    policy,
    cacheKey: () => (cacheKey ??= readOrCreateCacheKeyFile(cacheKeyFilePath(dataDir)).key),
  }
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.stdout.write(helpText())
    return name === undefined ? 2 : 0
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
  if (!command) {
    io.stderr.write(`Unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(', ')}.\n`)
    return 2
  }
  return command.run(args, io)
}

/** Exits once both streams are drained, so the last line is never lost and idle sockets do not hold the exit. */
function exitAfterFlush(code: number): void {
  let pending = 2
  const done = (): void => {
    pending -= 1
    if (pending === 0) process.exit(code)
  }
  process.stdout.write('', done)
  process.stderr.write('', done)
}

main(argv).then(exitAfterFlush, (error: unknown) => {
  // Last resort: commands report their own errors. The entry is redacted like every other.
  logger.error('RosterDesk CLI failed unexpectedly', error)
  exitAfterFlush(1)
})
