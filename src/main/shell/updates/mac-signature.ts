import { execFile } from 'node:child_process'
import { dirname } from 'node:path'

/**
 * Whether a macOS app bundle carries a Developer ID signature, from `codesign --display --verbose=2`'s report
 * (written to stderr; `man codesign`): a signed app names its `TeamIdentifier`; an ad-hoc signature (every arm64
 * build electron-builder makes without a certificate) says `Signature=adhoc` and `TeamIdentifier=not set`; an
 * unsigned app makes codesign fail with "code object is not signed at all". Squirrel.Mac, which electron-updater's
 * MacUpdater hands the update to, installs only an update that satisfies the running app's designated
 * requirement, which an ad-hoc or missing signature cannot give (Squirrel.Mac's SQRLCodeSignature), so only a
 * Developer ID signature counts.
 */
export function isDeveloperIdSigned(codesignReport: string, exitCode: number): boolean {
  if (exitCode !== 0) return false
  if (/^Signature=adhoc$/m.test(codesignReport)) return false
  const team = /^TeamIdentifier=(.+)$/m.exec(codesignReport)?.[1]?.trim()
  return team !== undefined && team !== '' && team !== 'not set'
}

/** The `.app` bundle of a macOS executable (`…/RosterDesk.app/Contents/MacOS/RosterDesk`). */
export function appBundleOf(execPath: string): string {
  return dirname(dirname(dirname(execPath)))
}

/** Asks codesign about the running app's bundle; false when codesign cannot tell (the check is then off). */
export function macAppIsSigned(execPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(
      '/usr/bin/codesign',
      ['--display', '--verbose=2', appBundleOf(execPath)],
      { timeout: 15_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1
        resolve(isDeveloperIdSigned(`${stdout}\n${stderr}`, code))
      },
    )
  })
}
