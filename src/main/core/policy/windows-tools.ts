import { execFile } from 'node:child_process'
import { win32 } from 'node:path'

/** How long one of Windows' own tools may take before what it reads counts as unreadable. */
export const WINDOWS_TOOL_TIMEOUT_MS = 20_000

/** A Windows tool by its full path under %SystemRoot%\System32, never found through PATH or the current folder. */
export function system32Tool(env: Readonly<Record<string, string | undefined>>, relative: string): string {
  const root = env['SystemRoot'] ?? env['SYSTEMROOT'] ?? env['windir'] ?? 'C:\\Windows'
  return win32.join(root, 'System32', relative)
}

/**
 * Runs a script with Windows PowerShell by its full path (no profile, no prompt), the script passed encoded so no
 * quoting of the command line can change it; its stdout, which the script makes UTF-8 so every character the
 * registry or a path holds arrives as it is. Rejects when it fails or runs out of time; `what` names it then.
 */
export function runPowerShell(
  script: string,
  env: Readonly<Record<string, string | undefined>>,
  what: string,
): Promise<string> {
  const encoded = Buffer.from(script, 'utf16le').toString('base64')
  return new Promise((resolve, reject) => {
    execFile(
      system32Tool(env, 'WindowsPowerShell\\v1.0\\powershell.exe'),
      ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand', encoded],
      { timeout: WINDOWS_TOOL_TIMEOUT_MS, windowsHide: true, maxBuffer: 4 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout) => {
        if (error === null) return resolve(stdout)
        reject(
          new Error(`${what} failed: ${error.killed ? 'timed out' : String(error.code ?? error.message)}`),
        )
      },
    )
  })
}

/** A PowerShell single-quoted string literal of `text`. */
export function powerShellString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`
}
