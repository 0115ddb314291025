import { execFile } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { inflateSync } from 'node:zlib'
import { FileMatcher } from 'app-builder-lib/out/fileMatcher'
import { computeArchToTargetNamesMap } from 'app-builder-lib/out/targets/targetFactory'
import { Platform } from 'app-builder-lib'
import { Arch } from 'builder-util'
import { describe, expect, it } from 'vitest'
import { schemeOf } from '../../../src/main/shell/adapters/deep-link'
import { DEFAULT_REDIRECT_URI } from '../../../src/main/core/settings/settings-defaults'
import { PER_MACHINE_MARKER } from '../../../src/main/shell/window-and-startup/msi-install'

interface PlatformConfig {
  target: Array<string | { target: string; arch?: string[] }>
  icon: string
  files: string[]
}

interface BuilderConfig {
  appId: string
  files?: unknown
  protocols: Array<{ name: string; schemes: string[] }>
  asar: { smartUnpack: boolean }
  asarUnpack: string[]
  npmRebuild: boolean
  nodeGypRebuild: boolean
  buildDependenciesFromSource: boolean
  electronFuses: Record<string, boolean>
  forceCodeSigning?: boolean
  win: PlatformConfig
  nsis: { include: string; perMachine: boolean }
  mac: PlatformConfig & {
    hardenedRuntime: boolean
    entitlements: string
    entitlementsInherit: string
    notarize?: boolean
  }
  linux: PlatformConfig
  dmg: { artifactName: string }
}

const ROOT = resolve(__dirname, '../../..')
const configText = readFileSync(join(ROOT, 'electron-builder.json'), 'utf8')
const config = JSON.parse(configText) as BuilderConfig
const PREBUILDS = join(ROOT, 'node_modules/better-sqlite3-multiple-ciphers/prebuilds')

/** The platforms the installers are built on, with electron-builder's name and better-sqlite3's prebuild prefix. */
const TARGETS = [
  { key: 'mac', prefix: 'darwin', archs: ['arm64', 'x64'] },
  { key: 'win', prefix: 'win32', archs: ['x64', 'arm64'] },
  { key: 'linux', prefix: 'linux', archs: ['x64', 'arm64'] },
] as const

/**
 * Whether electron-builder would copy `relativePath` from node_modules when packaging for `platform`/`arch`. Uses
 * electron-builder's own FileMatcher, built the way it builds the node_modules matcher (everything, minus the
 * exclusions of `files`), so the glob and `${arch}` semantics are the real ones, extglobs included.
 */
function shipsModuleFile(platform: PlatformConfig, arch: string, relativePath: string): boolean {
  const expand = (pattern: string): string => pattern.replace(/\$\{arch\}/g, arch)
  const excludes = platform.files.filter((pattern) => pattern.startsWith('!'))
  const matcher = new FileMatcher(ROOT, '/app', expand, ['**/*', ...excludes])
  // The filter only asks a stat whether the path is a directory, so any file's stat serves for every file.
  return matcher.createFilter()(join(ROOT, relativePath), statSync(__filename))
}

interface Png {
  readonly width: number
  readonly height: number
  readonly colourType: number
  /** Straight-alpha RGBA of pixel (x, y). */
  rgba(x: number, y: number): [number, number, number, number]
}

/** A small PNG reader (RGBA8, any row filter), so the test checks the icons' pixels, not just their headers. */
function readPng(file: Buffer): Png {
  expect(file.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  let offset = 8
  const idat: Buffer[] = []
  let width = 0
  let height = 0
  let colourType = -1
  while (offset < file.length) {
    const length = file.readUInt32BE(offset)
    const type = file.toString('ascii', offset + 4, offset + 8)
    const data = file.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      expect(data[8], 'bit depth').toBe(8)
      colourType = data[9]!
    }
    if (type === 'IDAT') idat.push(data)
    offset += 12 + length
  }
  expect(colourType, 'RGBA').toBe(6)
  const raw = inflateSync(Buffer.concat(idat))
  const stride = width * 4
  const pixels = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!
    for (let i = 0; i < stride; i++) {
      const a = i >= 4 ? pixels[y * stride + i - 4]! : 0
      const b = y > 0 ? pixels[(y - 1) * stride + i]! : 0
      const c = i >= 4 && y > 0 ? pixels[(y - 1) * stride + i - 4]! : 0
      const p = a + b - c
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter]!
      pixels[y * stride + i] = (raw[y * (stride + 1) + 1 + i]! + predicted) & 0xff
    }
  }
  return {
    width,
    height,
    colourType,
    rgba: (x, y) => {
      const i = (y * width + x) * 4
      return [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!, pixels[i + 3]!]
    },
  }
}

/** An app icon: transparent corners, an opaque blue body, a white glyph across the middle. */
function expectIconPixels(png: Png): void {
  const { width: size } = png
  expect(png.rgba(0, 0)[3], 'corner is transparent').toBe(0)
  expect(png.rgba(size - 1, size - 1)[3], 'corner is transparent').toBe(0)
  // Just inside the body's left edge, halfway down: the blue background.
  const [r, g, b, a] = png.rgba(Math.round(size * 0.15), Math.round(size * 0.5))
  expect(a).toBe(255)
  expect(b).toBeGreaterThan(r + 60)
  expect(b).toBeGreaterThan(g)
  // The middle of the glyph's line: white.
  const row = [...Array(size).keys()].map((x) => png.rgba(x, Math.round(size * 0.5)))
  expect(
    row.some(([red, green, blue, alpha]) => red > 240 && green > 240 && blue > 240 && alpha === 255),
  ).toBe(true)
}

describe('installer configuration', () => {
  it('registers the default redirect URI scheme with the OS on Windows and macOS', () => {
    const scheme = schemeOf(DEFAULT_REDIRECT_URI)
    expect(scheme).toBe('com.rosterdesk.app')
    expect(config.protocols.flatMap((p) => p.schemes)).toContain(scheme)
    expect(config.win.target).toContain('nsis')
    expect(config.mac.target.map((t) => (typeof t === 'string' ? t : t.target))).toContain('dmg')
  })

  it('builds a DMG for each Mac architecture, named by it, each runner its own once (issues 23, 31)', () => {
    // Intel Macs and Apple silicon both get an app, each built by its own runner with --x64 or --arm64, and the
    // file names say which is which. The targets name no arch: a target's arch list overrides the command line's
    // (app-builder-lib's computeArchToTargetNamesMap), which made each runner build both.
    // The zip beside it is what electron-updater's MacUpdater downloads (decision 044).
    expect(config.mac.target).toEqual(['dmg', 'zip'])
    for (const arch of ['x64', 'arm64']) {
      const fromCli = arch === 'x64' ? Arch.x64 : Arch.arm64
      const packager = { platformSpecificBuildOptions: { target: config.mac.target }, defaultTarget: ['dmg'] }
      const built = computeArchToTargetNamesMap(
        new Map([[fromCli, []]]),
        packager as unknown as Parameters<typeof computeArchToTargetNamesMap>[1],
        Platform.MAC,
      )
      expect([...built.entries()]).toEqual([[fromCli, ['dmg', 'zip']]])
    }
    expect(config.dmg.artifactName).toBe('RosterDesk-${version}-${arch}.${ext}')
    // Each slice ships its own prebuild only (the file filters for each arch: see "ships each platform only its
    // own prebuild" below).
    const workflow = readFileSync(join(ROOT, '.github/workflows/desktop.yml'), 'utf8')
    const matrix = /^\s+os: \[(.*)\]$/m
      .exec(workflow)?.[1]
      ?.split(',')
      .map((os) => os.trim())
    expect(matrix).toEqual(expect.arrayContaining(['macos-latest', 'macos-15-intel']))
    // The installer and the smoke test's unpacked app are built for the runner's own arch.
    expect(workflow).toContain('npm run dist -- $(bash scripts/builder-arch-flag.sh)')
    expect(workflow).toContain(
      'electron-builder --config electron-builder.config.mjs --dir --publish never $(bash scripts/builder-arch-flag.sh)',
    )
  })

  it('picks the runner’s architecture for electron-builder on macOS, and none elsewhere', async () => {
    const flag = async (os: string, arch: string): Promise<string> =>
      (
        await promisify(execFile)('bash', [join(ROOT, 'scripts/builder-arch-flag.sh')], {
          env: { ...process.env, RUNNER_OS: os, RUNNER_ARCH: arch },
        })
      ).stdout.trim()
    expect(await flag('macOS', 'ARM64')).toBe('--arm64')
    expect(await flag('macOS', 'X64')).toBe('--x64')
    expect(await flag('Windows', 'X64')).toBe('')
    expect(await flag('Linux', 'X64')).toBe('')
  })

  it('has the Windows installer write the scheme’s registry keys, since NSIS ignores `protocols`', () => {
    const scheme = schemeOf(DEFAULT_REDIRECT_URI)
    const script = readFileSync(join(ROOT, config.nsis.include), 'utf8')
    expect(script).toContain(`!define ROSTERDESK_SCHEME "${scheme}"`)
    // Per-user install: SHCTX is HKCU, so no administrator rights are needed to register the scheme.
    expect(config.nsis.perMachine).toBe(false)
    expect(script).toMatch(
      /!macro customInstall[\s\S]*"URL Protocol"[\s\S]*shell\\open\\command" "" '"\$INSTDIR\\\$\{APP_EXECUTABLE_FILENAME\}" "%1"'[\s\S]*!macroend/,
    )
    const uninstall = /!macro customUnInstall([\s\S]*?)!macroend/.exec(script)?.[1] ?? ''
    expect(uninstall).toContain('DeleteRegKey SHCTX "Software\\Classes\\${ROSTERDESK_SCHEME}"')
  })

  it('has a per-machine NSIS install write the marker that turns the app’s own updates off, and remove it', () => {
    // Issue 31, point 10: the app reads it (window-and-startup/msi-install.ts); equal to PER_MACHINE_MARKER.
    const script = readFileSync(join(ROOT, config.nsis.include), 'utf8')
    const install = /!macro customInstall([\s\S]*?)!macroend/.exec(script)?.[1] ?? ''
    const m = PER_MACHINE_MARKER
    expect(install).toMatch(
      new RegExp(
        String.raw`\$\{if\} \$installMode == "all"[\s\S]*WriteINIStr "\$INSTDIR\\${m.file}" "${m.section}" "${m.key}" "${m.value}"[\s\S]*\$\{else\}\s+Delete "\$INSTDIR\\${m.file}"`,
      ),
    )
    const uninstall = /!macro customUnInstall([\s\S]*?)!macroend/.exec(script)?.[1] ?? ''
    expect(uninstall).toContain(`Delete "$INSTDIR\\${m.file}"`)
  })

  it('has the uninstaller remove the user key the app wrote, only when it starts this install', () => {
    const script = readFileSync(join(ROOT, config.nsis.include), 'utf8')
    const uninstall = /!macro customUnInstall([\s\S]*?)!macroend/.exec(script)?.[1] ?? ''
    // The command Electron writes (browser_win.cc: the executable quoted, then "%1") is read from HKCU…
    expect(uninstall).toContain(
      'ReadRegStr $0 HKCU "Software\\Classes\\${ROSTERDESK_SCHEME}\\shell\\open\\command" ""',
    )
    // …compared with this install's executable, and the key deleted only on a match.
    expect(uninstall).toMatch(
      /StrCmp \$0 '"\$INSTDIR\\\$\{APP_EXECUTABLE_FILENAME\}" "%1"' 0 (\w+)\s+DeleteRegKey HKCU "Software\\Classes\\\$\{ROSTERDESK_SCHEME\}"\s+\1:/,
    )
    expect(uninstall.match(/DeleteRegKey HKCU/g)).toHaveLength(1)
  })

  it('flips the Electron fuses that close the packaged app to code it did not ship', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      // Flipping fuses breaks the ad-hoc signature Apple silicon requires; an unsigned build is re-signed ad hoc.
      resetAdHocDarwinSignature: true,
    })
  })

  it('packages better-sqlite3’s prebuilt Node-API binary as published, compiling and rebuilding nothing', () => {
    expect(config.npmRebuild).toBe(false)
    expect(config.nodeGypRebuild).toBe(false)
    expect(config.buildDependenciesFromSource).toBe(false)
    const sqlitePackage = JSON.parse(
      readFileSync(join(ROOT, 'node_modules/better-sqlite3-multiple-ciphers/package.json'), 'utf8'),
    ) as { gypfile?: boolean }
    // Without this, npm (and electron-builder's installer) would run node-gyp because binding.gyp exists.
    expect(sqlitePackage.gypfile).toBe(false)
    for (const target of TARGETS) {
      for (const arch of target.archs) {
        expect(existsSync(join(PREBUILDS, `${target.prefix}-${arch}.node`)), `${target.prefix}-${arch}`).toBe(
          true,
        )
      }
    }
  })

  it('unpacks only the native addon from the asar, not whole packages', () => {
    expect(config.asarUnpack).toEqual(['node_modules/better-sqlite3-multiple-ciphers/prebuilds/*.node'])
    // electron-builder would otherwise unpack every package that contains a binary, JavaScript and all.
    expect(config.asar.smartUnpack).toBe(false)
  })

  it('ships each platform only its own prebuild and none of better-sqlite3’s C sources', () => {
    for (const target of TARGETS) {
      const platform = config[target.key]
      for (const arch of target.archs) {
        const shipped = readdirSync(PREBUILDS).filter((name) =>
          shipsModuleFile(platform, arch, `node_modules/better-sqlite3-multiple-ciphers/prebuilds/${name}`),
        )
        expect(shipped, `${target.key} ${arch}`).toEqual([`${target.prefix}-${arch}.node`])
        for (const dropped of ['deps/sqlite3/sqlite3.c', 'src/better_sqlite3.cpp', 'binding.gyp']) {
          expect(
            shipsModuleFile(platform, arch, `node_modules/better-sqlite3-multiple-ciphers/${dropped}`),
            dropped,
          ).toBe(false)
        }
        for (const kept of ['lib/index.js', 'lib/binding.js', 'package.json']) {
          expect(
            shipsModuleFile(platform, arch, `node_modules/better-sqlite3-multiple-ciphers/${kept}`),
            kept,
          ).toBe(true)
        }
      }
    }
  })

  it('lists the app files per platform, because electron-builder packs the whole project otherwise', () => {
    // With a top-level `files` as well, a platform's exclusion-only list becomes its own matcher, which
    // electron-builder widens to `**/*`: sources, tests and .tools/ ended up in the asar.
    expect(config.files).toBeUndefined()
    for (const target of TARGETS) {
      const files = config[target.key].files
      expect(files.slice(0, 3), target.key).toEqual(['out/**/*', 'package.json', '!**/*.map'])
      expect(files, target.key).toContain('!node_modules/node-addon-api{,/**/*}')
    }
  })

  it('has a valid 1024 px PNG app icon for macOS and Linux', () => {
    expect(config.mac.icon).toBe('resources/icon.png')
    expect(config.linux.icon).toBe('resources/icon.png')
    const png = readPng(readFileSync(join(ROOT, config.mac.icon)))
    expect([png.width, png.height]).toEqual([1024, 1024])
    expectIconPixels(png)
  })

  it('has a valid Windows icon with a 256 px PNG image and small bitmaps', () => {
    expect(config.win.icon).toBe('resources/icon.ico')
    const ico = readFileSync(join(ROOT, config.win.icon))
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)], 'ICO header').toEqual([0, 1])
    const images = [...Array(ico.readUInt16LE(4)).keys()].map((index) => {
      const entry = 6 + 16 * index
      const start = ico.readUInt32LE(entry + 12)
      return {
        size: ico[entry] === 0 ? 256 : ico[entry]!,
        bitsPerPixel: ico.readUInt16LE(entry + 6),
        data: ico.subarray(start, start + ico.readUInt32LE(entry + 8)),
      }
    })
    expect(images.map((image) => image.size)).toEqual([16, 24, 32, 48, 64, 128, 256])
    for (const image of images) {
      expect(image.bitsPerPixel).toBe(32)
      if (image.size === 256) {
        const png = readPng(image.data)
        expect([png.width, png.height]).toEqual([256, 256])
        expectIconPixels(png)
      } else {
        // BITMAPINFOHEADER: 40 bytes, the height counts the AND mask too.
        expect([image.data.readUInt32LE(0), image.data.readInt32LE(4), image.data.readInt32LE(8)]).toEqual([
          40,
          image.size,
          image.size * 2,
        ])
      }
    }
  })

  it('keeps the committed icons equal to what scripts/make-icons.mjs draws', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      join(ROOT, 'scripts/make-icons.mjs'),
      '--check',
    ])
    expect(stdout).toContain('icons are up to date')
  })

  it('signs with a hardened runtime and only the JIT entitlement V8 needs', () => {
    expect(config.mac.hardenedRuntime).toBe(true)
    expect(config.mac.entitlements).toBe('resources/entitlements.mac.plist')
    expect(config.mac.entitlementsInherit).toBe(config.mac.entitlements)
    const plist = readFileSync(join(ROOT, config.mac.entitlements), 'utf8')
    const keys = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<(true|false)\/>/g)].map((m) => [m[1], m[2]])
    expect(keys).toEqual([['com.apple.security.cs.allow-jit', 'true']])
  })

  it('takes signing and notarization credentials only from the environment, so unsigned builds still work', () => {
    // electron-builder reads CSC_LINK/CSC_KEY_PASSWORD (WIN_CSC_* on Windows) and APPLE_ID/… or APPLE_API_KEY/…
    // itself; anything naming a certificate, identity or Apple account here would pin or leak one.
    const credentialKeys =
      /"(cscLink|cscKeyPassword|cscInstallerLink|certificateFile|certificatePassword|certificateSha1|certificateSubjectName|identity|appleId|appleIdPassword|appleApiKey|teamId|keychain|keychainProfile|signtoolOptions|azureSignOptions|sign|password)"\s*:/
    expect(configText).not.toMatch(credentialKeys)
    expect(configText).not.toContain('${env.')
    expect(config.forceCodeSigning ?? false).toBe(false)
    // Unset, not false: notarization then runs whenever the APPLE_* variables are present.
    expect(config.mac.notarize).toBeUndefined()
  })

  it('builds the installer with `npm run dist`', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    // electron-builder.config.mjs is electron-builder.json plus the update feed the environment names.
    expect(pkg.scripts['dist']).toBe(
      'electron-vite build && electron-builder --config electron-builder.config.mjs --publish never',
    )
  })
})
