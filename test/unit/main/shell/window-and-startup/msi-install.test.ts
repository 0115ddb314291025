import { describe, expect, it } from 'vitest'
import {
  MSI_MARKER,
  MSI_UPDATES_OFF_REASON,
  PER_MACHINE_MARKER,
  PER_MACHINE_UPDATES_OFF_REASON,
  installKind,
  isMsiInstall,
  managedInstallReason,
  type MsiInstallFacts,
} from '../../../../../src/main/shell/window-and-startup/msi-install'

/** An MSI install is told by its marker beside the executable (decision 045); nothing else turns updates off. */
const EXE = 'C:\\Program Files\\RosterDesk\\RosterDesk.exe'
const MARKER_PATH = `C:\\Program Files\\RosterDesk\\${MSI_MARKER.file}`

function facts(marker: Uint8Array | undefined, more: Partial<MsiInstallFacts> = {}): MsiInstallFacts {
  return {
    platform: 'win32',
    isPackaged: true,
    execPath: EXE,
    readFile: (path) => (path === MARKER_PATH ? marker : undefined),
    ...more,
  }
}

const ansi = (text: string): Uint8Array => Buffer.from(text, 'latin1')
const utf16 = (text: string): Uint8Array =>
  Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])

describe('isMsiInstall', () => {
  it('gives the reason updates are off when the MSI’s marker is beside the executable', () => {
    expect(isMsiInstall(facts(ansi('[RosterDesk]\r\nInstalledBy=msi\r\n')))).toBe(MSI_UPDATES_OFF_REASON)
    expect(MSI_UPDATES_OFF_REASON).toBe(
      "RosterDesk was installed by your IT department's MSI package; they update it.",
    )
  })

  it('reads the marker as Windows does: UTF-16 with its byte order mark, any case, spaces around the =', () => {
    expect(isMsiInstall(facts(utf16('[RosterDesk]\r\nInstalledBy=msi\r\n')))).toBe(MSI_UPDATES_OFF_REASON)
    expect(isMsiInstall(facts(ansi('[rosterdesk]\ninstalledby = MSI\n')))).toBe(MSI_UPDATES_OFF_REASON)
    expect(isMsiInstall(facts(ansi('; comment\n[Other]\nx=1\n[RosterDesk]\nInstalledBy=msi')))).toBe(
      MSI_UPDATES_OFF_REASON,
    )
  })

  it('says nothing (updates stay on) for an NSIS or portable install, or a marker that says something else', () => {
    expect(isMsiInstall(facts(undefined))).toBeUndefined()
    expect(isMsiInstall(facts(ansi('')))).toBeUndefined()
    expect(isMsiInstall(facts(ansi('[Other]\r\nInstalledBy=msi\r\n')))).toBeUndefined()
    expect(isMsiInstall(facts(ansi('[RosterDesk]\r\nInstalledBy=nsis\r\n')))).toBeUndefined()
  })

  it('is never an MSI install off Windows or unpackaged, whatever lies beside the executable', () => {
    const marker = ansi('[RosterDesk]\r\nInstalledBy=msi\r\n')
    expect(isMsiInstall(facts(marker, { platform: 'darwin' }))).toBeUndefined()
    expect(isMsiInstall(facts(marker, { isPackaged: false }))).toBeUndefined()
  })
})

/**
 * A per-machine NSIS install (`Setup.exe /S /allusers`) is told by the marker resources/installer.nsh writes in its
 * folder (issue 31, point 10): electron-updater would run each update's installer there with a UAC prompt at every
 * quit, so updates are off and IT deploys the next version, as for the MSI.
 */
describe('managedInstallReason', () => {
  const PER_MACHINE_PATH = `C:\\Program Files\\RosterDesk\\${PER_MACHINE_MARKER.file}`
  const files =
    (found: Record<string, Uint8Array>) =>
    (path: string): Uint8Array | undefined =>
      found[path]

  it('turns updates off for a per-machine NSIS install, by its marker beside the executable', () => {
    const marker = ansi('[RosterDesk]\r\nInstalledBy=nsis-per-machine\r\n')
    expect(managedInstallReason(facts(undefined, { readFile: files({ [PER_MACHINE_PATH]: marker }) }))).toBe(
      PER_MACHINE_UPDATES_OFF_REASON,
    )
    expect(PER_MACHINE_UPDATES_OFF_REASON).toBe(
      'RosterDesk was installed for all users of this computer, so your IT department updates it.',
    )
  })

  it('gives the MSI’s reason for an MSI install, and nothing for a per-user install', () => {
    expect(managedInstallReason(facts(ansi('[RosterDesk]\r\nInstalledBy=msi\r\n')))).toBe(
      MSI_UPDATES_OFF_REASON,
    )
    expect(managedInstallReason(facts(undefined))).toBeUndefined()
    // The per-machine marker's file with another value, or the MSI's value in the wrong file, is no marker.
    const other = ansi('[RosterDesk]\r\nInstalledBy=msi\r\n')
    expect(managedInstallReason(facts(undefined, { readFile: files({ [PER_MACHINE_PATH]: other }) }))).toBe(
      undefined,
    )
  })

  it('is never a per-machine install off Windows or unpackaged', () => {
    const readFile = files({ [PER_MACHINE_PATH]: ansi('[RosterDesk]\r\nInstalledBy=nsis-per-machine\r\n') })
    expect(managedInstallReason(facts(undefined, { readFile, platform: 'darwin' }))).toBeUndefined()
    expect(managedInstallReason(facts(undefined, { readFile, isPackaged: false }))).toBeUndefined()
  })
})

/** What a diagnostics file says of the install: by the same markers, and whether the app is packaged at all. */
describe('installKind', () => {
  const PER_MACHINE_PATH = `C:\\Program Files\\RosterDesk\\${PER_MACHINE_MARKER.file}`
  const perMachine = ansi('[RosterDesk]\r\nInstalledBy=nsis-per-machine\r\n')

  it('names an MSI, a per-machine, a per-user, a packaged and an unpackaged copy', () => {
    expect(installKind(facts(ansi('[RosterDesk]\r\nInstalledBy=msi\r\n')))).toBe('MSI')
    expect(
      installKind(
        facts(undefined, { readFile: (path) => (path === PER_MACHINE_PATH ? perMachine : undefined) }),
      ),
    ).toBe('per-machine')
    expect(installKind(facts(undefined))).toBe('per-user')
    expect(installKind(facts(undefined, { platform: 'darwin' }))).toBe('packaged')
    expect(installKind(facts(ansi('[RosterDesk]\r\nInstalledBy=msi\r\n'), { isPackaged: false }))).toBe(
      'unpackaged',
    )
  })
})
