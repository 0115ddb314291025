import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS, SETTINGS_VERSION } from '../../../../../src/main/core/settings/settings-defaults'
import { migrateSettings } from '../../../../../src/main/core/settings/settings-migrations'
import {
  NETWORK_DEFAULTS,
  PAY_DISPLAY_DEFAULTS,
  SYNC_LIMIT_SETTING_DEFAULTS,
} from '../../../../../src/shared/settings-rules'

describe('migrateSettings', () => {
  it('starts from the defaults when nothing is stored', () => {
    expect(migrateSettings(undefined, undefined)).toEqual({
      settings: DEFAULT_SETTINGS,
      fromVersion: 0,
      changed: false,
      resetFields: [],
    })
  })

  it('brings the unversioned v0 layout to v1: renames, nests and normalises', () => {
    const v0 = {
      environment: 'sandbox',
      stagingBaseUrl: 'https://staging.payroll.example/',
      productionBaseUrl: 'https://payroll.example',
      clientId: 'client-1',
      redirectUri: 'com.rosterdesk.app:/oauth/callback',
      scope: 'read,write',
      tenantId: 'tenant-9',
      pageSize: 200,
      concurrency: 2,
      payCycles: ['PC-2026-11-A'],
    }
    const result = migrateSettings(v0, undefined)
    expect(result).toEqual({
      settings: {
        environment: 'demo',
        baseUrls: { staging: 'https://staging.payroll.example', production: 'https://payroll.example' },
        clientId: 'client-1',
        redirectUri: 'com.rosterdesk.app:/oauth/callback',
        scopes: 'read write',
        tenantId: 'tenant-9',
        pageSize: 200,
        concurrency: 2,
        trackedPayCycles: ['PC-2026-11-A'],
        // Settings that v0 did not have take their defaults.
        syncScope: 'all',
        staleAfterHours: 24,
        syncOnLaunch: false,
        syncEveryHours: 0,
        requestTimeoutSeconds: 30,
        syncDeadlineMinutes: 120,
        maxEmployees: 5_000_000,
        ...NETWORK_DEFAULTS,
        formatLocale: 'system',
        ...PAY_DISPLAY_DEFAULTS,
      },
      fromVersion: 0,
      changed: true,
      resetFields: [],
    })
    expect(SETTINGS_VERSION).toBe(1)
  })

  it('resets only the fields that no longer validate, and reports them by name', () => {
    const stored = {
      ...DEFAULT_SETTINGS,
      clientId: 'keep-me',
      pageSize: 0,
      baseUrls: { staging: 'http://insecure.example', production: 'https://payroll.example' },
    }
    const result = migrateSettings(stored, 1)
    expect(result.settings).toEqual({
      ...DEFAULT_SETTINGS,
      clientId: 'keep-me',
      baseUrls: { staging: '', production: 'https://payroll.example' },
    })
    expect(result.resetFields.sort()).toEqual(['baseUrls.staging', 'pageSize'])
    expect(result.changed).toBe(true)
  })

  it('loads a file saved before the freshness settings existed with their defaults', () => {
    const { staleAfterHours, syncOnLaunch, syncEveryHours, ...before } = {
      ...DEFAULT_SETTINGS,
      clientId: 'c',
    }
    expect({ staleAfterHours, syncOnLaunch, syncEveryHours }).toEqual({
      staleAfterHours: 24,
      syncOnLaunch: false,
      syncEveryHours: 0,
    })
    const result = migrateSettings(before, 1)
    expect(result.settings).toEqual({ ...DEFAULT_SETTINGS, clientId: 'c' })
    expect(result).toMatchObject({ resetFields: [], changed: true })
  })

  it('loads a file saved before the sync limits were settings with their defaults, and keeps saved ones', () => {
    const { requestTimeoutSeconds, syncDeadlineMinutes, maxEmployees, ...before } = {
      ...DEFAULT_SETTINGS,
      clientId: 'c',
    }
    expect({ requestTimeoutSeconds, syncDeadlineMinutes, maxEmployees }).toEqual(SYNC_LIMIT_SETTING_DEFAULTS)
    const result = migrateSettings(before, 1)
    expect(result.settings).toEqual({ ...DEFAULT_SETTINGS, clientId: 'c' })
    expect(result).toMatchObject({ resetFields: [], changed: true })

    const saved = migrateSettings({ ...before, requestTimeoutSeconds: 90, maxEmployees: 50_000_000 }, 1)
    expect(saved.settings).toMatchObject({
      requestTimeoutSeconds: 90,
      syncDeadlineMinutes: 120,
      maxEmployees: 50_000_000,
    })
    // One out of range goes back to its default alone.
    const wrong = migrateSettings({ ...DEFAULT_SETTINGS, syncDeadlineMinutes: 0, maxEmployees: 7 }, 1)
    expect(wrong.settings).toMatchObject({ syncDeadlineMinutes: 120, maxEmployees: 7 })
    expect(wrong.resetFields).toEqual(['syncDeadlineMinutes'])
  })

  it('leaves current, valid data as it is', () => {
    expect(migrateSettings({ ...DEFAULT_SETTINGS, clientId: 'c' }, 1)).toMatchObject({
      changed: false,
      resetFields: [],
    })
  })

  it('drops keys it does not know, a stray secret included', () => {
    const result = migrateSettings({ ...DEFAULT_SETTINGS, clientSecret: 's3cret' }, 1)
    expect(result.changed).toBe(true)
    expect(JSON.stringify(result)).not.toContain('s3cret')
  })

  it('reads data of a newer version as far as it validates but never writes it back', () => {
    const result = migrateSettings({ ...DEFAULT_SETTINGS, clientId: 'from-future', futureField: 1 }, 7)
    expect(result).toMatchObject({ fromVersion: 7, changed: false })
    expect(result.settings.clientId).toBe('from-future')
  })

  it('survives garbage', () => {
    expect(migrateSettings('not an object', 1).settings).toEqual(DEFAULT_SETTINGS)
    expect(migrateSettings([1, 2], 'x').settings).toEqual(DEFAULT_SETTINGS)
  })
})
