import { describe, expect, it } from 'vitest'
import { BusyWork } from '../../../../../src/main/shell/updates/busy-work'
import { appBundleOf, isDeveloperIdSigned } from '../../../../../src/main/shell/updates/mac-signature'
import { updateFailureNote } from '../../../../../src/main/shell/updates/update-controller'

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
