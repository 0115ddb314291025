import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import type { PolicySourceDeps, RegistryQueryResult } from './policy-sources'

/** How long `reg query` may take before the policy counts as unreadable (a healthy one answers in milliseconds). */
export const REG_QUERY_TIMEOUT_MS = 10_000

/**
 * `reg.exe query <key> /s` (Windows' own registry tool, present on every Windows): its output, or `missing` when
 * it exits 1 with nothing on stdout, which is how it says the key does not exist. A one-shot child process
 * bounded in time and output, the only one core starts (decision 042): Node has no registry API, and the
 * alternatives are native modules.
 */
export function queryRegistryWithRegExe(key: string): Promise<RegistryQueryResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'reg.exe',
      ['query', key, '/s'],
      { timeout: REG_QUERY_TIMEOUT_MS, windowsHide: true, maxBuffer: 4 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout) => {
        if (error === null) return resolve({ kind: 'found', output: stdout })
        if (error.code === 1 && stdout.trim() === '') return resolve({ kind: 'missing' })
        reject(
          new Error(
            `reg query ${key} failed: ${error.killed ? 'timed out' : String(error.code ?? error.message)}`,
          ),
        )
      },
    )
  })
}

/** The real sources: this process's platform and environment, the file system, reg.exe. */
export function systemPolicySources(packaged: boolean): PolicySourceDeps {
  return {
    platform: process.platform,
    env: process.env,
    packaged,
    readFile: (path) => readFile(path, 'utf8'),
    queryRegistry: queryRegistryWithRegExe,
  }
}
