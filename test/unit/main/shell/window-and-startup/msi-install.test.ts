import { describe, expect, it } from 'vitest'
import {
  MSI_MARKER,
  MSI_UPDATES_OFF_REASON,
  isMsiInstall,
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
