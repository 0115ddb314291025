import { constants, statSync, type Stats } from 'node:fs'
import { open, readFile, realpath } from 'node:fs/promises'
import { win32 } from 'node:path'
import {
  posixRefusal,
  windowsPathsToCheck,
  windowsRefusal,
  type PolicyFileRead,
  type PolicyFileTrust,
  type PosixEntry,
  type WindowsAclEntry,
} from './policy-file-trust'
import { powerShellString, runPowerShell } from './windows-tools'

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown }).code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

function entryOf(stats: Stats): PosixEntry {
  return { uid: stats.uid, mode: stats.mode, isDirectory: stats.isDirectory() }
}

/**
 * Reads a policy file on macOS or Linux under the POSIX rule (`posixRefusal`): the path's symbolic links resolved,
 * the file opened without following a link and checked through its open descriptor, then read from that same
 * descriptor, so the file read is the file checked. Rejects with the fs error when it exists but cannot be read.
 */
export async function readPosixPolicyFile(path: string, trust: PolicyFileTrust): Promise<PolicyFileRead> {
  let real: string
  try {
    real = await realpath(path)
  } catch (error) {
    if (isMissing(error)) return { kind: 'missing' }
    throw error
  }
  const me = process.getuid?.()
  const owners = new Set<number>([0, ...(trust === 'administrators-or-me' && me !== undefined ? [me] : [])])
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW)
  try {
    const file = entryOf(await handle.stat())
    const refusal = posixRefusal(real, (at) => (at === real ? file : entryOf(statSync(at))), owners)
    if (refusal !== undefined) return { kind: 'refused', ...refusal }
    return { kind: 'read', text: await handle.readFile('utf8') }
  } finally {
    await handle.close()
  }
}

/** What the Windows check's PowerShell script prints, as one JSON object. */
export interface WindowsAclReport {
  /** The common application data folder, from the known-folder API (not the ProgramData variable). */
  readonly programData: string
  /** The current user's SID. */
  readonly user: string
  readonly entries: readonly WindowsAclEntry[]
}

/**
 * The PowerShell that reads each path's security descriptor (Get-Acl's SDDL, which names accounts by SID, so no
 * Windows language changes what is read), the known folder %ProgramData% and the user's SID, printed as UTF-8 JSON.
 * `machine`: the paths are the machine's policy file and its folder under the known folder.
 */
export function aclScript(paths: readonly string[] | 'machine'): string {
  const list =
    paths === 'machine'
      ? "$file = Join-Path $pd 'RosterDesk\\policy.json'; $paths = @($file, (Split-Path -LiteralPath $file))"
      : `$paths = @(${paths.map(powerShellString).join(', ')})`
  return [
    "$ErrorActionPreference = 'Stop'",
    '[Console]::OutputEncoding = [Text.Encoding]::UTF8',
    "$pd = [Environment]::GetFolderPath('CommonApplicationData')",
    list,
    '$entries = @(foreach ($p in $paths) { if (Test-Path -LiteralPath $p) { @{ path = $p; sddl = (Get-Acl -LiteralPath $p).Sddl } } else { @{ path = $p } } })',
    '@{ programData = $pd; user = [Security.Principal.WindowsIdentity]::GetCurrent().User.Value; entries = $entries } | ConvertTo-Json -Compress -Depth 4',
  ].join('\n')
}

/** The script's output read; throws when it is not the report the script prints. */
export function parseAclReport(output: string): WindowsAclReport {
  const raw: unknown = JSON.parse(output.replace(/^\uFEFF/, '').trim())
  const object = (value: unknown): Record<string, unknown> =>
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
  const report = object(raw)
  const text = (value: unknown, what: string): string => {
    if (typeof value !== 'string') throw new Error(`the permission report has no ${what}`)
    return value
  }
  const list = Array.isArray(report['entries']) ? report['entries'] : [report['entries']]
  return {
    programData: text(report['programData'], 'ProgramData folder'),
    user: text(report['user'], 'user'),
    entries: list.map((item) => {
      const entry = object(item)
      const sddl = entry['sddl']
      return {
        path: text(entry['path'], 'path'),
        ...(typeof sddl === 'string' ? { sddl } : {}),
      }
    }),
  }
}

/**
 * Reads a policy file on Windows under the Windows rule (`windowsRefusal`): the machine's file under the known
 * folder %ProgramData%, checked with its folder up to %ProgramData%; a file a run from source names, with every
 * folder up to its drive's root, the current user allowed as owner. Only administrators can then replace it, so
 * the file read after the check is the one checked.
 */
export async function readWindowsPolicyFile(
  which: { readonly machine: true } | { readonly path: string },
  env: Readonly<Record<string, string | undefined>>,
  run: (script: string) => Promise<string> = (script) => runPowerShell(script, env, 'the permission check'),
): Promise<{ path: string; read: PolicyFileRead }> {
  const named = 'path' in which ? win32.resolve(which.path) : undefined
  const paths = named === undefined ? 'machine' : windowsPathsToCheck(named, win32.parse(named).root)
  const report = parseAclReport(await run(aclScript(paths)))
  const file = report.entries[0]
  if (file === undefined) throw new Error('the permission report lists no file')
  if (file.sddl === undefined) return { path: file.path, read: { kind: 'missing' } }
  const stopAt = named === undefined ? report.programData : win32.parse(named).root
  // Every path the rule needs must be in the report, with its descriptor: a report short of one is no proof.
  const entries = windowsPathsToCheck(file.path, stopAt).map((path) => {
    const entry = report.entries.find((candidate) => candidate.path.toLowerCase() === path.toLowerCase())
    if (entry?.sddl === undefined) throw new Error(`the permission report has nothing for ${path}`)
    return entry
  })
  const refusal = windowsRefusal(entries, named === undefined ? undefined : report.user)
  if (refusal !== undefined) return { path: file.path, read: { kind: 'refused', ...refusal } }
  try {
    return { path: file.path, read: { kind: 'read', text: await readFile(file.path, 'utf8') } }
  } catch (error) {
    if (isMissing(error)) return { path: file.path, read: { kind: 'missing' } }
    throw error
  }
}
