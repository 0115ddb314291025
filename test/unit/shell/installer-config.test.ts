import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { schemeOf } from '../../../src/main/adapters/deep-link'
import { DEFAULT_REDIRECT_URI } from '../../../src/main/core/settings/settings-defaults'

interface BuilderConfig {
  appId: string
  protocols: Array<{ name: string; schemes: string[] }>
  asarUnpack: string[]
  win: { target: string[] }
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

  it('unpacks better-sqlite3 from the asar so its native addon can load', () => {
    expect(config.asarUnpack).toContain('node_modules/better-sqlite3/**/*')
  })
})
