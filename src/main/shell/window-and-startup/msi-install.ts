import { win32 } from 'node:path'

/**
 * The marker the MSI package writes (scripts/msi-project.mjs, decision 045): an INI file beside the executable,
 * created by Windows Installer's IniFile table at install and removed at uninstall. The NSIS installer and a
 * portable copy never write it.
 */
export const MSI_MARKER = {
  file: 'msi-install.ini',
  section: 'RosterDesk',
  key: 'InstalledBy',
  value: 'msi',
} as const

/** Why updates are off on an MSI install: electron-updater cannot update one, and IT deploys the next MSI. */
export const MSI_UPDATES_OFF_REASON =
  "RosterDesk was installed by your IT department's MSI package; they update it."

export interface MsiInstallFacts {
  readonly platform: NodeJS.Platform
  readonly isPackaged: boolean
  /** `process.execPath`: the installed RosterDesk.exe. */
  readonly execPath: string
  /** Reads a file whole; undefined when it is missing or unreadable. */
  readonly readFile: (path: string) => Uint8Array | undefined
}

/**
 * Whether an MSI installed this copy, and so why its own updates are off: the reason the updates controller shows
 * (its `disabledReason`), or undefined when the app may update itself. Pure with its facts given: only a packaged
 * Windows app whose folder holds the marker with `[RosterDesk] InstalledBy=msi` is an MSI install.
 */
export function isMsiInstall(facts: MsiInstallFacts): string | undefined {
  if (facts.platform !== 'win32' || !facts.isPackaged) return undefined
  const bytes = facts.readFile(win32.join(win32.dirname(facts.execPath), MSI_MARKER.file))
  if (bytes === undefined) return undefined
  return markerSaysMsi(iniText(bytes)) ? MSI_UPDATES_OFF_REASON : undefined
}

/**
 * An INI file's text: Windows Installer writes it through WritePrivateProfileString, in the ANSI code page, or
 * UTF-16LE when the file starts with its byte order mark.
 */
function iniText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2))
  return new TextDecoder('latin1').decode(bytes)
}

/** Whether `[RosterDesk]` holds `InstalledBy=msi` (names and value compared as Windows does, ignoring case). */
function markerSaysMsi(text: string): boolean {
  let section = ''
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    const header = /^\[(.*)\]$/.exec(line)
    if (header !== null) {
      section = (header[1] ?? '').trim().toLowerCase()
      continue
    }
    if (section !== MSI_MARKER.section.toLowerCase()) continue
    const equals = line.indexOf('=')
    if (equals < 0) continue
    const key = line.slice(0, equals).trim().toLowerCase()
    const value = line
      .slice(equals + 1)
      .trim()
      .toLowerCase()
    if (key === MSI_MARKER.key.toLowerCase() && value === MSI_MARKER.value) return true
  }
  return false
}
