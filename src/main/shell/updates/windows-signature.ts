import { win32 } from 'node:path'
import { parseDn } from 'builder-util-runtime/out/rfc2253Parser'
import { powerShellString, runPowerShell } from '../../core/policy/windows-tools'

/**
 * The start of every refusal this check gives for a signature it could not check (rather than a wrong one):
 * electron-updater puts the refusal into its ERR_UPDATER_INVALID_SIGNATURE message, where the note finds it.
 */
export const SIGNATURE_NOT_CHECKED = 'RosterDesk could not check the signature'

/** `Get-AuthenticodeSignature`'s `Status` for a signature Windows trusts whose hash matches (SignatureStatus.Valid). */
const VALID = 0

/**
 * The PowerShell script that reports a file's Authenticode signature as JSON: its status as a number, the path it
 * read and the signer's subject (null when unsigned). UTF-8 out, so a subject with any character arrives whole.
 */
export function authenticodeScript(file: string): string {
  return [
    '[Console]::OutputEncoding = [System.Text.Encoding]::UTF8',
    `$s = Get-AuthenticodeSignature -LiteralPath ${powerShellString(file)}`,
    '$subject = if ($s.SignerCertificate) { $s.SignerCertificate.Subject } else { $null }',
    '[pscustomobject]@{ Status = [int]$s.Status; Path = $s.Path; Subject = $subject } | ConvertTo-Json -Compress',
  ].join('\n')
}

/**
 * Whether `authenticodeScript`'s report says the file carries a valid signature by one of `publisherNames`: null
 * when it does, else why not. The names are matched as electron-updater's own verifier does
 * (windowsExecutableCodeSignatureVerifier.ts, verifySignature): a full distinguished name must agree on each of
 * its attributes, a bare name with the subject's CN; the DN parsed by the same parser (builder-util-runtime's
 * parseDn). Unlike that verifier, it never lets a file through that it could not check (it "fails open" on an old
 * PowerShell, an error, or a report without the path): anything unexpected is a refusal.
 */
export function authenticodeVerdict(
  publisherNames: readonly string[],
  file: string,
  report: string,
): string | null {
  let data: { Status?: unknown; Path?: unknown; Subject?: unknown }
  try {
    data = JSON.parse(report) as typeof data
  } catch {
    return `${SIGNATURE_NOT_CHECKED}: PowerShell's report was not JSON`
  }
  if (typeof data.Path !== 'string' || !samePath(data.Path, file))
    return `${SIGNATURE_NOT_CHECKED}: PowerShell reported on another file (${String(data.Path)})`
  if (data.Status !== VALID || typeof data.Subject !== 'string')
    return `the signature is not valid (Get-AuthenticodeSignature status ${String(data.Status)})`
  const subject = parseDn(data.Subject)
  const match = publisherNames.some((name) => {
    const dn = parseDn(name)
    return dn.size > 0
      ? [...dn].every(([key, value]) => subject.get(key) === value)
      : name === subject.get('CN')
  })
  return match ? null : `signed by ${data.Subject}, not by ${publisherNames.join(' | ')}`
}

function samePath(a: string, b: string): boolean {
  return win32.normalize(a).toLowerCase() === win32.normalize(b).toLowerCase()
}

/**
 * NsisUpdater's `verifyUpdateCodeSignature` for RosterDesk: asks Windows PowerShell, by its full path under
 * %SystemRoot%\System32, for the downloaded installer's Authenticode signature, and answers null only for a valid
 * one by a publisher the build names (`authenticodeVerdict`); a PowerShell that fails or times out is a refusal.
 */
export async function verifyWindowsSignature(
  publisherNames: readonly string[],
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<string | null> {
  let report: string
  try {
    report = await runPowerShell(authenticodeScript(file), env, 'Get-AuthenticodeSignature')
  } catch (error) {
    return `${SIGNATURE_NOT_CHECKED}: ${error instanceof Error ? error.message : String(error)}`
  }
  return authenticodeVerdict(publisherNames, file, report.trim())
}

/**
 * Whether electron-builder's app-update.yml names the Windows publisher (`publisherName`, written by
 * PublishManager.ts for a signed build, as js-yaml's dump: a block list, or a scalar when set by hand):
 * electron-updater checks an installer's signature only then (NsisUpdater.verifySignature returns null, "nothing
 * to check", when it is absent).
 */
export function namesPublisher(appUpdateYml: string): boolean {
  const lines = appUpdateYml.split(/\r?\n/)
  const at = lines.findIndex((line) => /^publisherName\s*:/.test(line))
  if (at < 0) return false
  const inline = (lines[at] ?? '').replace(/^publisherName\s*:/, '').trim()
  if (inline !== '') return !/^(~|null|\[\s*\]|''|"")$/i.test(inline)
  // A block list: the indented `- name` lines that follow.
  return /^\s+-\s*\S/.test(lines[at + 1] ?? '')
}
