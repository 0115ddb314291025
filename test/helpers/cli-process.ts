import { spawn } from 'node:child_process'
import type { ChildProcessByStdio } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Readable } from 'node:stream'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { BUNDLE_ENTRIES, bundledProgram } from './test-bundles'
import { cacheKeyFilePath } from '../../src/main/core/secrets/cache-key-file'
import { TEST_CACHE_KEY } from './test-cache-key'

const ROOT = resolve(__dirname, '..', '..')

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * The node arguments that start `program` from the run's bundles (bundledProgram), or from its TypeScript source
 * through tsx, as `npm run cli` does, where the project builds none.
 */
export function childProgramArgs(program: 'cli' | 'kill-at-checkpoint' | 'kill-writer'): string[] {
  const bundled = bundledProgram(program)
  return bundled === undefined ? ['--import', 'tsx', join(ROOT, BUNDLE_ENTRIES[program])] : [bundled]
}

let configHome: string | undefined

/**
 * The XDG_CONFIG_HOME every CLI a test starts gets unless the test names one: the CLI's default data folder, and
 * so its log (cli.log) and its key file (holding TEST_CACHE_KEY), lands in a folder of the test run's own,
 * removed when it ends, never in the user's.
 */
export function cliTestConfigHome(): string {
  if (configHome === undefined) {
    const made = mkdtempSync(join(tmpdir(), 'rosterdesk-cli-config-'))
    process.once('exit', () => rmSync(made, { recursive: true, force: true }))
    // The CLI's key file in its default data folder holds the tests' key, so a test opens what a CLI wrote.
    mkdirSync(join(made, 'RosterDesk'), { mode: 0o700 })
    writeFileSync(cacheKeyFilePath(join(made, 'RosterDesk')), `${TEST_CACHE_KEY.revealHex()}\n`, {
      mode: 0o600,
    })
    configHome = made
  }
  return configHome
}

/**
 * Starts the CLI (childProgramArgs), as a process of its own whose environment is only PATH, HOME,
 * XDG_CONFIG_HOME (cliTestConfigHome) and `env`; `done` resolves with what it printed once it exits.
 */
export function startCliProcess(
  args: readonly string[],
  env: Record<string, string> = {},
): { child: ChildProcessByStdio<null, Readable, Readable>; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [...childProgramArgs('cli'), ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      XDG_CONFIG_HOME: cliTestConfigHome(),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const done = new Promise<CliResult>((resolvePromise, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => resolvePromise({ code, stdout, stderr }))
  })
  return { child, done }
}

/** The CLI arguments that point it at `sandbox` as its payroll service. */
export function sandboxServiceArgs(sandbox: SandboxHandle): string[] {
  return [
    '--base-url',
    sandbox.baseUrl,
    '--client-id',
    sandbox.credentials.clientId,
    '--redirect-uri',
    sandbox.credentials.redirectUri,
  ]
}

/** The environment a scheduled CLI sync of `sandbox` runs with: its client secret and freshly issued tokens. */
export function sandboxCliEnv(sandbox: SandboxHandle): Record<string, string> {
  const tokens = sandbox.issueTokens()
  return {
    ROSTERDESK_CLIENT_SECRET: sandbox.credentials.clientSecret,
    ROSTERDESK_ACCESS_TOKEN: tokens.accessToken,
    ROSTERDESK_REFRESH_TOKEN: tokens.refreshToken,
  }
}
