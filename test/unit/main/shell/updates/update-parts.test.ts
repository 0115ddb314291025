import { describe, expect, it } from 'vitest'
import { BusyWork } from '../../../../../src/main/shell/updates/busy-work'
import { appBundleOf, isDeveloperIdSigned } from '../../../../../src/main/shell/updates/mac-signature'
import { updateFailureNote } from '../../../../../src/main/shell/updates/update-controller'
import {
  SIGNATURE_NOT_CHECKED,
  authenticodeScript,
  authenticodeVerdict,
  namesPublisher,
} from '../../../../../src/main/shell/updates/windows-signature'

/** codesign --display --verbose=2 reports (stderr), as macOS prints them for each kind of signature. */
const DEVELOPER_ID = [
  'Executable=/Applications/RosterDesk.app/Contents/MacOS/RosterDesk',
  'Identifier=com.rosterdesk.app',
  'Format=app bundle with Mach-O thin (arm64)',
  'CodeDirectory v=20500 size=1234 flags=0x10000(runtime) hashes=27+7 location=embedded',
  'Signature size=9042',
  'Authority=Developer ID Application: Example Payroll Ltd (AB12CD34EF)',
  'Authority=Developer ID Certification Authority',
  'Authority=Apple Root CA',
  'Timestamp=20 Nov 2026 at 10:00:00',
  'TeamIdentifier=AB12CD34EF',
].join('\n')
const AD_HOC = [
  'Executable=/Applications/RosterDesk.app/Contents/MacOS/RosterDesk',
  'Identifier=com.rosterdesk.app',
  'CodeDirectory v=20400 size=1234 flags=0x20002(adhoc,linker-signed) hashes=27+0 location=embedded',
  'Signature=adhoc',
  'TeamIdentifier=not set',
].join('\n')

describe('the macOS signature check', () => {
  it('counts only a Developer ID signature: not an ad-hoc one, nor none', () => {
    expect(isDeveloperIdSigned(DEVELOPER_ID, 0)).toBe(true)
    expect(isDeveloperIdSigned(AD_HOC, 0)).toBe(false)
    expect(isDeveloperIdSigned('/Applications/RosterDesk.app: code object is not signed at all', 1)).toBe(
      false,
    )
    expect(appBundleOf('/Applications/RosterDesk.app/Contents/MacOS/RosterDesk')).toBe(
      '/Applications/RosterDesk.app',
    )
  })
})

describe('what a restart into an update waits for', () => {
  it('names a running sync, and an export or print while its request waits', async () => {
    let syncing = false
    const busy = new BusyWork(async () => syncing)
    expect(await busy.reason()).toBeUndefined()
    syncing = true
    expect(await busy.reason()).toBe('RosterDesk restarts to update once it is done: a sync is running.')

    let finish: () => void = () => undefined
    const dispatch = busy.track(
      (channel) =>
        new Promise((resolve) => {
          finish = () => resolve({ ok: true, value: channel })
        }),
    )
    const exporting = dispatch('export:start', [])
    expect(await busy.reason()).toBe(
      'RosterDesk restarts to update once it is done: a sync is running and an export is being written.',
    )
    syncing = false
    finish()
    await exporting
    expect(await busy.reason()).toBeUndefined()
    // Other requests are not work a restart loses.
    const query = dispatch('employees:query', [])
    expect(await busy.reason()).toBeUndefined()
    finish()
    await query
    // A status the core cannot give (it is restarting) is no sync.
    const unknown = new BusyWork(() => Promise.reject(new Error('core down')))
    expect(await unknown.reason()).toBeUndefined()
  })
})

describe('the muted note of a failed check or download', () => {
  it('words electron-updater’s and Chromium’s failures for the clerk', () => {
    const coded = (code: string, message = code) => Object.assign(new Error(message), { code })
    expect(updateFailureNote(coded('ERR_CHECKSUM_MISMATCH'))).toBe(
      'the download did not match its published checksum and was deleted',
    )
    expect(updateFailureNote(coded('ERR_UPDATER_INVALID_SIGNATURE'))).toBe(
      'the download is not signed by the publisher of RosterDesk and was deleted',
    )
    expect(updateFailureNote(Object.assign(new Error('HttpError: 503'), { statusCode: 503 }))).toBe(
      'the update server answered 503',
    )
    expect(updateFailureNote(new Error('net::ERR_CONNECTION_REFUSED'))).toBe(
      'the update server could not be reached',
    )
    expect(updateFailureNote(new Error('net::ERR_CERT_AUTHORITY_INVALID'))).toBe(
      'the update server’s certificate is not trusted',
    )
    expect(updateFailureNote(new Error('net::ERR_PROXY_CONNECTION_FAILED'))).toBe(
      'the update check could not pass the proxy',
    )
  })
})

/**
 * The Windows signature check RosterDesk gives electron-updater's NsisUpdater (issue 31, point 4), over reports as
 * authenticodeScript's PowerShell prints them (`[pscustomobject]@{Status; Path; Subject} | ConvertTo-Json
 * -Compress`; Status is SignatureStatus as a number: 0 Valid, 2 NotSigned, 3 HashMismatch, 4 NotTrusted).
 */
describe('the Windows signature check', () => {
  const FILE =
    'C:\\Users\\clerk\\AppData\\Local\\rosterdesk-updater\\pending\\temp-RosterDesk-Setup-2.0.0.exe'
  const SUBJECT = 'CN=Müller & Söhne Payroll GmbH, O=Müller & Söhne Payroll GmbH, L=Zürich, C=CH'
  const report = (status: number, subject: string | null, path = FILE) =>
    JSON.stringify({ Status: status, Path: path, Subject: subject })

  it('passes only a valid signature by a publisher the build names, as a full DN or a CN', () => {
    expect(authenticodeVerdict([SUBJECT], FILE, report(0, SUBJECT))).toBeNull()
    expect(authenticodeVerdict(['Müller & Söhne Payroll GmbH'], FILE, report(0, SUBJECT))).toBeNull()
    // The path as PowerShell reports it may differ in case and separators only.
    expect(
      authenticodeVerdict([SUBJECT], FILE, report(0, SUBJECT, FILE.toLowerCase().replace(/\\/g, '/'))),
    ).toBeNull()
    expect(authenticodeVerdict(['CN=Someone Else, O=Someone Else, C=GB'], FILE, report(0, SUBJECT))).toBe(
      `signed by ${SUBJECT}, not by CN=Someone Else, O=Someone Else, C=GB`,
    )
  })

  it('refuses an unsigned, tampered or untrusted file', () => {
    expect(authenticodeVerdict([SUBJECT], FILE, report(2, null))).toBe(
      'the signature is not valid (Get-AuthenticodeSignature status 2)',
    )
    expect(authenticodeVerdict([SUBJECT], FILE, report(3, SUBJECT))).toMatch(/status 3/)
    expect(authenticodeVerdict([SUBJECT], FILE, report(4, SUBJECT))).toMatch(/status 4/)
  })

  it('refuses what it could not check, where electron-updater’s own check lets the file through', () => {
    // No path in the report, another file's, or no JSON at all: windowsExecutableCodeSignatureVerifier.ts
    // answers null ("valid") for the first and for a PowerShell that fails; this check never does.
    expect(authenticodeVerdict([SUBJECT], FILE, JSON.stringify({ Status: 0, Subject: SUBJECT }))).toMatch(
      new RegExp(`^${SIGNATURE_NOT_CHECKED}`),
    )
    expect(authenticodeVerdict([SUBJECT], FILE, report(0, SUBJECT, 'C:\\other.exe'))).toMatch(
      new RegExp(`^${SIGNATURE_NOT_CHECKED}`),
    )
    expect(authenticodeVerdict([SUBJECT], FILE, 'Get-AuthenticodeSignature : not recognized')).toMatch(
      new RegExp(`^${SIGNATURE_NOT_CHECKED}`),
    )
  })

  it('asks PowerShell about the file by a quoted literal path, with UTF-8 out', () => {
    const script = authenticodeScript("C:\\Users\\o'brien\\Setup.exe")
    expect(script).toContain("Get-AuthenticodeSignature -LiteralPath 'C:\\Users\\o''brien\\Setup.exe'")
    expect(script).toContain('[Console]::OutputEncoding = [System.Text.Encoding]::UTF8')
  })

  it('reads whether app-update.yml names the publisher, as electron-builder writes it', () => {
    const generic =
      'provider: generic\nurl: https://updates.example.com/\nupdaterCacheDirName: rosterdesk-updater\n'
    expect(namesPublisher(generic)).toBe(false)
    expect(namesPublisher(`${generic}publisherName:\n  - Example Payroll Ltd\n`)).toBe(true)
    expect(
      namesPublisher(`publisherName:\n  - CN=Example Payroll Ltd, O=Example Payroll Ltd\n${generic}`),
    ).toBe(true)
    expect(namesPublisher(`${generic}publisherName: Example Payroll Ltd\n`)).toBe(true)
    expect(namesPublisher(`${generic}publisherName: null\n`)).toBe(false)
    expect(namesPublisher(`${generic}publisherName: []\n`)).toBe(false)
  })

  it('words a refused and an unchecked signature for the clerk', () => {
    const refused = Object.assign(
      new Error('New version 2.0.0 is not signed by the application owner: signed by CN=X'),
      {
        code: 'ERR_UPDATER_INVALID_SIGNATURE',
      },
    )
    expect(updateFailureNote(refused)).toBe(
      'the download is not signed by the publisher of RosterDesk and was deleted',
    )
    const unchecked = Object.assign(
      new Error(
        `New version 2.0.0 is not signed by the application owner: ${SIGNATURE_NOT_CHECKED}: spawn ENOENT`,
      ),
      { code: 'ERR_UPDATER_INVALID_SIGNATURE' },
    )
    expect(updateFailureNote(unchecked)).toBe(
      'the download’s signature could not be checked, so it was deleted',
    )
    // Squirrel.Mac refusing the zip it fetched from MacUpdater (its error, forwarded by MacUpdater).
    expect(
      updateFailureNote(
        new Error('Code signature at URL file:///… did not pass validation: code failed to satisfy'),
      ),
    ).toBe('macOS refused the update’s signature, so it was not installed')
  })
})
