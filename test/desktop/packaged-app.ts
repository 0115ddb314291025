import { existsSync } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'

/**
 * Finds and inspects the app electron-builder unpacked under dist/ (`npm run dist`, or `electron-builder --dir`),
 * so the desktop smoke test runs what the installer contains rather than the development build.
 */

const ROOT = resolve(__dirname, '../..')
const DIST = join(ROOT, 'dist')

export interface PackagedApp {
  /** The executable Playwright launches. */
  readonly executable: string
  /** The folder holding app.asar and app.asar.unpacked. */
  readonly resources: string
  /** The binary electron-builder flips the fuses in (on macOS the framework, not the launcher). */
  readonly fuseBinary: string
}

/**
 * Where electron-builder puts the unpacked app for this OS and architecture: it names the folder without the arch
 * for x64 (dist/win-unpacked) and with it otherwise (dist/mac-arm64).
 */
function candidates(): string[] {
  const arch = process.arch === 'x64' ? '' : `-${process.arch}`
  if (process.platform === 'win32') return [join(DIST, `win${arch}-unpacked`, 'RosterDesk.exe')]
  if (process.platform === 'darwin')
    return [join(DIST, `mac${arch}`, 'RosterDesk.app', 'Contents', 'MacOS', 'RosterDesk')]
  return [join(DIST, `linux${arch}-unpacked`, 'rosterdesk')]
}

/**
 * The packaged app: ROSTERDESK_APP_PATH when set (the executable, or on macOS the .app bundle), else the one
 * under dist/ for this OS and architecture. Fails with what to run when there is none: a smoke test that skips
 * proves nothing.
 */
export function findPackagedApp(): PackagedApp {
  const override = process.env['ROSTERDESK_APP_PATH']
  let executable: string | undefined
  if (override !== undefined && override.trim() !== '') {
    executable = override.endsWith('.app') ? join(override, 'Contents', 'MacOS', 'RosterDesk') : override
    if (!existsSync(executable)) throw new Error(`ROSTERDESK_APP_PATH points at nothing: ${executable}`)
  } else {
    executable = candidates().find((path) => existsSync(path))
  }
  if (executable === undefined) {
    throw new Error(
      `No packaged RosterDesk under ${DIST} for ${process.platform}-${process.arch}. Build one first ` +
        '(see README, "Installers"), or set ROSTERDESK_APP_PATH to its executable.',
    )
  }
  if (process.platform === 'darwin') {
    const contents = dirname(dirname(executable))
    return {
      executable,
      resources: join(contents, 'Resources'),
      fuseBinary: join(contents, 'Frameworks', 'Electron Framework.framework', 'Electron Framework'),
    }
  }
  return { executable, resources: join(dirname(executable), 'resources'), fuseBinary: executable }
}

/** The fuse wire's position of each option electron-builder's `electronFuses` sets (@electron/fuses' FuseV1Options). */
const FUSE_INDEX: Readonly<Record<string, number>> = {
  runAsNode: 0,
  enableCookieEncryption: 1,
  enableNodeOptionsEnvironmentVariable: 2,
  enableNodeCliInspectArguments: 3,
  enableEmbeddedAsarIntegrityValidation: 4,
  onlyLoadAppFromAsar: 5,
  loadBrowserProcessSpecificV8Snapshot: 6,
  grantFileProtocolExtraPrivileges: 7,
}

const FUSE_SENTINEL = Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX', 'ascii')

/**
 * The fuses as the binary has them, by `electronFuses` name: true on, false off. The wire follows a fixed
 * sentinel: a version byte (1), a length byte, then one ASCII '0' or '1' per fuse ('r' when removed).
 */
export async function readFuses(binary: string): Promise<Record<string, boolean>> {
  const bytes = await readFile(binary)
  const at = bytes.indexOf(FUSE_SENTINEL)
  if (at < 0) throw new Error(`No Electron fuse wire in ${binary}`)
  const wire = at + FUSE_SENTINEL.length
  if (bytes[wire] !== 1) throw new Error(`Unknown fuse wire version ${bytes[wire]} in ${binary}`)
  const length = bytes[wire + 1]!
  const fuses: Record<string, boolean> = {}
  for (const [name, index] of Object.entries(FUSE_INDEX)) {
    if (index < length) fuses[name] = bytes[wire + 2 + index] === 0x31
  }
  return fuses
}

interface AsarNode {
  readonly files?: Record<string, AsarNode>
  readonly unpacked?: boolean
}

/**
 * Every file path in an asar archive (forward slashes), read from its header: a Chromium pickle holding the
 * header's size, then a pickle holding the header as a JSON string.
 */
export async function listAsar(archive: string): Promise<string[]> {
  const file = await open(archive, 'r')
  try {
    const sizes = Buffer.alloc(16)
    await file.read(sizes, 0, 16, 0)
    const jsonLength = sizes.readUInt32LE(12)
    const json = Buffer.alloc(jsonLength)
    await file.read(json, 0, jsonLength, 16)
    const header = JSON.parse(json.toString('utf8')) as AsarNode
    const paths: string[] = []
    const walk = (node: AsarNode, prefix: string): void => {
      for (const [name, child] of Object.entries(node.files ?? {})) {
        if (child.files) walk(child, `${prefix}${name}/`)
        else paths.push(`${prefix}${name}`)
      }
    }
    walk(header, '')
    return paths
  } finally {
    await file.close()
  }
}
