import { readPosixPolicyFile, readWindowsPolicyFile } from './policy-file-read'
import {
  machinePolicyFile,
  type PolicySourceDeps,
  type RegistryQueryResult,
  type RegistryValue,
} from './policy-sources'
import { powerShellString, runPowerShell } from './windows-tools'

/**
 * The PowerShell that lists a registry key's values, and its subkeys' (so a misplaced value is refused by name,
 * never ignored), as UTF-8 JSON: `{"missing":true}`, or `{"values":[{key, name, kind, data}]}` with each value's
 * kind as .NET's RegistryValueKind names it and its data unexpanded. reg.exe was not kept: it writes the console's
 * code page, which loses characters such as "ü" in some code pages and Japanese in most.
 */
export function registryScript(key: string): string {
  const path = powerShellString(`Registry::${key.replace(/^HKLM\\/, 'HKEY_LOCAL_MACHINE\\')}`)
  return [
    "$ErrorActionPreference = 'Stop'",
    '[Console]::OutputEncoding = [Text.Encoding]::UTF8',
    `$root = ${path}`,
    'if (-not (Test-Path -LiteralPath $root)) { \'{"missing":true}\'; exit 0 }',
    '$keys = @(Get-Item -LiteralPath $root) + @(Get-ChildItem -LiteralPath $root -Recurse)',
    "$values = @(foreach ($k in $keys) { foreach ($n in $k.GetValueNames()) { @{ key = $k.Name; name = $n; kind = $k.GetValueKind($n).ToString(); data = $k.GetValue($n, $null, 'DoNotExpandEnvironmentNames') } } })",
    '@{ values = $values } | ConvertTo-Json -Compress -Depth 4',
  ].join('\n')
}

/** .NET's RegistryValueKind names as the registry's own type names, which POLICY_REGISTRY_VALUES uses. */
const KINDS = new Map([
  ['String', 'REG_SZ'],
  ['ExpandString', 'REG_EXPAND_SZ'],
  ['DWord', 'REG_DWORD'],
  ['QWord', 'REG_QWORD'],
  ['MultiString', 'REG_MULTI_SZ'],
  ['Binary', 'REG_BINARY'],
])

/**
 * The script's output read into values: text as it is; a DWORD (which .NET gives as a signed 32-bit number) as
 * `0x…` of its unsigned value, as reg.exe wrote it; other kinds' data as JSON text (the rule refuses them by
 * type). Throws when the output is not the script's.
 */
export function parseRegistryReport(output: string): RegistryQueryResult {
  const raw: unknown = JSON.parse(output.replace(/^\uFEFF/, '').trim())
  if (typeof raw !== 'object' || raw === null) throw new Error('the registry report is not an object')
  const report = raw as { missing?: unknown; values?: unknown }
  if (report.missing === true) return { kind: 'missing' }
  const list: unknown[] = Array.isArray(report.values)
    ? report.values
    : report.values == null
      ? []
      : [report.values]
  const values = list.map((item): RegistryValue => {
    const entry = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>
    const { key, name, kind, data } = entry
    if (typeof key !== 'string' || typeof name !== 'string' || typeof kind !== 'string')
      throw new Error('the registry report has a value without its key, name or kind')
    const type = KINDS.get(kind) ?? `REG_${kind.toUpperCase()}`
    const text =
      typeof data === 'string'
        ? data
        : type === 'REG_DWORD' && typeof data === 'number'
          ? `0x${(data >>> 0).toString(16)}`
          : JSON.stringify(data ?? null)
    return { key, name, type, data: text }
  })
  return { kind: 'found', values }
}

/** The registry key's values, read with Windows PowerShell by its full path (`registryScript`). */
export async function queryRegistryWithPowerShell(
  key: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<RegistryQueryResult> {
  return parseRegistryReport(await runPowerShell(registryScript(key), env, `reading ${key}`))
}

/**
 * The real sources: this process's platform and environment; the file system, each file read only when only
 * administrators (or, for ROSTERDESK_POLICY_FILE, the current user) can change it (policy-file-read.ts); the
 * registry through PowerShell.
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
    queryRegistry: (key) => queryRegistryWithPowerShell(key, env),
  }
}
