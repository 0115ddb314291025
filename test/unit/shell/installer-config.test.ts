import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { schemeOf } from '../../../src/main/adapters/deep-link'
import { DEFAULT_REDIRECT_URI } from '../../../src/main/core/settings/settings-defaults'

interface BuilderConfig {
  appId: string
  protocols: Array<{ name: string; schemes: string[] }>
  asarUnpack: string[]
  win: { target: string[] }
  nsis: { include: string; perMachine: boolean }
  mac: { target: string[] }
}

const config = JSON.parse(readFileSync('electron-builder.json', 'utf8')) as BuilderConfig

describe('installer configuration', () => {
  it('registers the default redirect URI scheme with the OS on Windows and macOS', () => {
    const scheme = schemeOf(DEFAULT_REDIRECT_URI)
    expect(scheme).toBe('com.rosterdesk.app')
    expect(config.protocols.flatMap((p) => p.schemes)).toContain(scheme)
    expect(config.win.target).toContain('nsis')
    expect(config.mac.target).toContain('dmg')
  })

  it('has the Windows installer write the scheme’s registry keys, since NSIS ignores `protocols`', () => {
    const scheme = schemeOf(DEFAULT_REDIRECT_URI)
    const script = readFileSync(config.nsis.include, 'utf8')
    expect(script).toContain(`!define ROSTERDESK_SCHEME "${scheme}"`)
    // Per-user install: SHCTX is HKCU, so no administrator rights are needed to register the scheme.
    expect(config.nsis.perMachine).toBe(false)
    expect(script).toMatch(
      /!macro customInstall[\s\S]*"URL Protocol"[\s\S]*shell\\open\\command" "" '"\$INSTDIR\\\$\{APP_EXECUTABLE_FILENAME\}" "%1"'[\s\S]*!macroend/,
    )
    expect(script).toMatch(
      /!macro customUnInstall\s+DeleteRegKey SHCTX "Software\\Classes\\\$\{ROSTERDESK_SCHEME\}"\s+!macroend/,
    )
  })

  it('unpacks better-sqlite3 from the asar so its native addon can load', () => {
    expect(config.asarUnpack).toContain('node_modules/better-sqlite3/**/*')
  })
})
