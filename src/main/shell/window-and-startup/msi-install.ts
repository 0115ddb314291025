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

/**
 * The marker a per-machine NSIS install (`Setup.exe /S /allusers`) writes (resources/installer.nsh, customInstall,
 * when electron-builder's multiUser.nsh set `$installMode` to "all"; a per-user install deletes it, and so does the
 * uninstaller). electron-updater would run each update's installer into Program Files from a standard user's app:
 * a UAC prompt at every quit (issue 31, point 10).
 */
export const PER_MACHINE_MARKER = {
  file: 'per-machine-install.ini',
  section: 'RosterDesk',
  key: 'InstalledBy',
  value: 'nsis-per-machine',
} as const

/** Why updates are off on a per-machine NSIS install: IT deploys the next version, as for the MSI. */
export const PER_MACHINE_UPDATES_OFF_REASON =
  'RosterDesk was installed for all users of this computer, so your IT department updates it.'

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
  return markerFound(facts, MSI_MARKER) ? MSI_UPDATES_OFF_REASON : undefined
}

/**
 * Whether IT manages this copy, and so why its own updates are off: an MSI install (its reason first), or a
 * per-machine NSIS install (PER_MACHINE_MARKER); undefined for a per-user or portable copy. Pure with its facts.
 */
export function managedInstallReason(facts: MsiInstallFacts): string | undefined {
  return (
    isMsiInstall(facts) ??
    (markerFound(facts, PER_MACHINE_MARKER) ? PER_MACHINE_UPDATES_OFF_REASON : undefined)
  )
}

/**
 * How this copy was installed, as a diagnostics file says it: "MSI", "per-machine" (NSIS for all users),
 * "per-user" (a packaged Windows copy without either marker: NSIS per user or portable), "packaged" (macOS, Linux)
 * or "unpackaged" (`npm start`). Pure with its facts.
 */
export function installKind(facts: MsiInstallFacts): string {
  if (!facts.isPackaged) return 'unpackaged'
  if (facts.platform !== 'win32') return 'packaged'
  if (markerFound(facts, MSI_MARKER)) return 'MSI'
  return markerFound(facts, PER_MACHINE_MARKER) ? 'per-machine' : 'per-user'
}

type Marker = typeof MSI_MARKER | typeof PER_MACHINE_MARKER

/** Whether a packaged Windows app's folder holds `marker`'s file with its section, key and value. */
function markerFound(facts: MsiInstallFacts, marker: Marker): boolean {
  if (facts.platform !== 'win32' || !facts.isPackaged) return false
  const bytes = facts.readFile(win32.join(win32.dirname(facts.execPath), marker.file))
  return bytes !== undefined && markerSays(iniText(bytes), marker)
}

/**
 * An INI file's text: Windows Installer writes it through WritePrivateProfileString, in the ANSI code page, or
 * UTF-16LE when the file starts with its byte order mark.
 */
function iniText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2))
  return new TextDecoder('latin1').decode(bytes)
}

/** Whether the marker's section holds its key and value (names and value compared as Windows does, ignoring case). */
function markerSays(text: string, marker: Marker): boolean {
  let section = ''
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    const header = /^\[(.*)\]$/.exec(line)
    if (header !== null) {
      section = (header[1] ?? '').trim().toLowerCase()
      continue
    }
    if (section !== marker.section.toLowerCase()) continue
    const equals = line.indexOf('=')
    if (equals < 0) continue
    const key = line.slice(0, equals).trim().toLowerCase()
    const value = line
      .slice(equals + 1)
      .trim()
      .toLowerCase()
    if (key === marker.key.toLowerCase() && value === marker.value) return true
  }
  return false
}
