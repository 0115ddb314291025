import { execFile } from 'node:child_process'
import { readPosixPolicyFile, readWindowsPolicyFile, system32Tool } from './policy-file-read'
import { machinePolicyFile, type PolicySourceDeps, type RegistryQueryResult } from './policy-sources'

/** How long `reg query` may take before the policy counts as unreadable (a healthy one answers in milliseconds). */
export const REG_QUERY_TIMEOUT_MS = 10_000

/**
 * `reg.exe query <key> /s` (Windows' own registry tool, present on every Windows, run by its full path under
 * %SystemRoot%\System32 so no reg.exe on PATH or in the current folder stands in for it): its output, or `missing` when
 * it exits 1 with nothing on stdout, which is how it says the key does not exist. A one-shot child process
 * bounded in time and output, one of the two core starts (decision 042; the other is the policy file's permission
 * check, policy-file-read.ts): Node has no registry API, and the alternatives are native modules.
 */
export function queryRegistryWithRegExe(
  key: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<RegistryQueryResult> {
  return new Promise((resolve, reject) => {
    execFile(
      system32Tool(env, 'reg.exe'),
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

/**
 * The real sources: this process's platform and environment; the file system, each file read only when only
 * administrators (or, for ROSTERDESK_POLICY_FILE, the current user) can change it (policy-file-read.ts); reg.exe.
 */
export function systemPolicySources(packaged: boolean): PolicySourceDeps {
  const { platform, env } = process
  const windows = platform === 'win32'
  return {
    platform,
    env,
    packaged,
    readMachineFile: async () => {
      if (windows) return readWindowsPolicyFile({ machine: true }, env)
      const path = machinePolicyFile(platform, env)
      return { path, read: await readPosixPolicyFile(path, 'administrators') }
    },
    readNamedFile: async (path) =>
      windows
        ? (await readWindowsPolicyFile({ path }, env)).read
        : readPosixPolicyFile(path, 'administrators-or-me'),
    queryRegistry: (key) => queryRegistryWithRegExe(key, env),
  }
}
