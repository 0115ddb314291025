import { describe, expect, it } from 'vitest'
import {
  MemoryKeyValueBackend,
  ReadThroughBackend,
  type KeyValueBackend,
} from '../../../../../src/main/core/settings/key-value-backend'
import { SettingsStore } from '../../../../../src/main/core/settings/settings-store'

/** A file that refuses every write, as the shell must never write the settings the core process owns. */
function unwritable(values: Record<string, unknown>): KeyValueBackend {
  const file = new MemoryKeyValueBackend()
  for (const [key, value] of Object.entries(values)) file.set(key, value)
  return {
    get: (key) => file.get(key),
    set: (key) => {
      throw new Error(`wrote ${key}`)
    },
  }
}

describe('ReadThroughBackend', () => {
  it('lets the shell read an older settings file, migrated in memory, without writing it', () => {
    const flat = {
      environment: 'staging',
      baseUrls: { staging: 'https://staging.payroll.example', production: '' },
      clientId: 'client-1',
      redirectUri: 'com.example.payroll:/cb',
      scopes: 'read',
      tenantId: 'tenant-1',
    }
    const file = unwritable({ settings: flat, settingsVersion: 1 })
    const settings = new SettingsStore(new ReadThroughBackend(file))
    expect(settings.get()).toMatchObject({ environment: 'staging', redirectUri: 'com.example.payroll:/cb' })
    expect(settings.profiles.list()).toHaveLength(1)
    expect(file.get('settingsVersion')).toBe(1)
    expect(file.get('profiles')).toBeUndefined()
  })

  it('answers what was written from memory, and everything else from the file', () => {
    const file = unwritable({ a: 1, b: { c: 2 } })
    const view = new ReadThroughBackend(file)
    view.set('a', 10)
    expect(view.get('a')).toBe(10)
    expect(view.get('b')).toEqual({ c: 2 })
    expect(file.get('a')).toBe(1)
  })
})
