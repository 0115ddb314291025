import { describe, expect, it } from 'vitest'
import { settingsSchema } from '../../../src/shared/domain'
import { DEFAULT_SETTINGS, defaultSettings } from '../../../src/main/core/settings/settings-defaults'
import {
  normalizeScopes,
  redirectUriProblem,
  validateSettingsPatch,
} from '../../../src/main/core/settings/settings-validation'

function errorsOf(patch: unknown): Record<string, string> {
  const result = validateSettingsPatch(patch)
  if (result.ok) throw new Error('expected the patch to be refused')
  return result.fieldErrors
}

function settingsOf(patch: unknown) {
  const result = validateSettingsPatch(patch)
  if (!result.ok) throw new Error(`expected the patch to be accepted: ${JSON.stringify(result.fieldErrors)}`)
  return result.settings
}

describe('default settings', () => {
  it('match the shared schema and the issue: demo, empty addresses, private-use redirect, read scope', () => {
    expect(settingsSchema.parse(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS)
    expect(DEFAULT_SETTINGS).toEqual({
      environment: 'demo',
      baseUrls: { staging: '', production: '' },
      clientId: '',
      redirectUri: 'com.rosterdesk.app:/oauth/callback',
      scopes: 'read',
      tenantId: '',
      pageSize: 500,
      concurrency: 4,
      trackedPayCycles: [],
    })
    expect(validateSettingsPatch({}, DEFAULT_SETTINGS)).toEqual({ ok: true, settings: DEFAULT_SETTINGS })
  })

  it('hands out copies that cannot change the defaults', () => {
    const copy = defaultSettings()
    copy.baseUrls.staging = 'https://changed.example'
    expect(DEFAULT_SETTINGS.baseUrls.staging).toBe('')
  })
})

describe('validateSettingsPatch', () => {
  it('accepts https addresses and trims the trailing slash', () => {
    const settings = settingsOf({
      baseUrls: { staging: ' https://staging.payroll.example/api/ ', production: 'https://payroll.example' },
    })
    expect(settings.baseUrls).toEqual({
      staging: 'https://staging.payroll.example/api',
      production: 'https://payroll.example',
    })
  })

  it('allows plain http only for this computer', () => {
    expect(
      settingsOf({ baseUrls: { staging: 'http://127.0.0.1:8080', production: '' } }).baseUrls.staging,
    ).toBe('http://127.0.0.1:8080')
    expect(
      settingsOf({ baseUrls: { staging: 'http://localhost:8080/', production: '' } }).baseUrls.staging,
    ).toBe('http://localhost:8080')
    expect(
      errorsOf({ baseUrls: { staging: 'http://payroll.example', production: '' } })['baseUrls.staging'],
    ).toMatch(/must start with https:\/\//)
  })

  it('reports each bad address against its own field, in words a clerk understands', () => {
    const errors = errorsOf({ baseUrls: { staging: 'payroll', production: 'https://u:p@payroll.example' } })
    expect(errors['baseUrls.staging']).toBe(
      'The Staging address must be a full web address such as https://payroll.example.com.',
    )
    expect(errors['baseUrls.production']).toBe(
      'The Production address must not contain a user name or password.',
    )
    expect(
      errorsOf({ baseUrls: { staging: 'https://x.example/?a=1', production: '' } })['baseUrls.staging'],
    ).toMatch(/must not contain \? or #/)
    expect(
      errorsOf({ baseUrls: { staging: 'ftp://x.example', production: '' } })['baseUrls.staging'],
    ).toMatch(/https/)
  })

  it('lets an address be emptied (not configured yet)', () => {
    const current = { ...defaultSettings(), baseUrls: { staging: 'https://s.example', production: '' } }
    const result = validateSettingsPatch({ baseUrls: { staging: '', production: '' } }, current)
    expect(result.ok && result.settings.baseUrls.staging).toBe('')
  })

  it('normalises scopes given with spaces or commas', () => {
    expect(settingsOf({ scopes: ' read,write  read ' }).scopes).toBe('read write')
    expect(normalizeScopes('read, write,,read')).toBe('read write')
    expect(errorsOf({ scopes: ' , ' }).scopes).toBe('Enter at least one scope, for example read.')
    expect(errorsOf({ scopes: 'read "write"' }).scopes).toMatch(/Scopes are words/)
  })

  it('accepts private-use reverse-domain schemes and loopback redirect URIs only (RFC 8252)', () => {
    expect(redirectUriProblem('com.rosterdesk.app:/oauth/callback')).toBeUndefined()
    expect(redirectUriProblem('http://127.0.0.1:8765/callback')).toBeUndefined()
    expect(redirectUriProblem('http://localhost/callback')).toBeUndefined()
    expect(redirectUriProblem('rosterdesk:/oauth/callback')).toMatch(/reverse-domain/)
    expect(redirectUriProblem('com.rosterdesk.app://oauth/callback')).toMatch(/single slash/)
    expect(redirectUriProblem('https://rosterdesk.example/callback')).toMatch(
      /cannot receive an https redirect/,
    )
    expect(redirectUriProblem('http://example.com/callback')).toMatch(/this computer/)
    expect(redirectUriProblem('com.rosterdesk.app:/oauth/callback#x')).toMatch(/#/)
    expect(errorsOf({ redirectUri: '' }).redirectUri).toMatch(/Enter the redirect URI/)
  })

  it('checks numbers as whole numbers within range, accepting digits typed as text', () => {
    expect(settingsOf({ pageSize: '250', concurrency: 8 })).toMatchObject({ pageSize: 250, concurrency: 8 })
    const errors = errorsOf({ pageSize: 0, concurrency: 2.5 })
    expect(errors.pageSize).toBe('Page size must be a whole number from 1 to 10000.')
    expect(errors.concurrency).toBe('Parallel requests must be a whole number from 1 to 16.')
  })

  it('trims client and tenant IDs and refuses characters that cannot travel in a header', () => {
    expect(settingsOf({ clientId: ' abc ', tenantId: ' t-1 ' })).toMatchObject({
      clientId: 'abc',
      tenantId: 't-1',
    })
    expect(errorsOf({ clientId: 'a b' }).clientId).toMatch(/spaces/)
    expect(errorsOf({ tenantId: 'tenant é' }).tenantId).toMatch(/spaces or accented/)
  })

  it('trims and de-duplicates tracked pay cycles', () => {
    expect(settingsOf({ trackedPayCycles: [' PC-1 ', 'PC-1', '', 'PC-2'] }).trackedPayCycles).toEqual([
      'PC-1',
      'PC-2',
    ])
    expect(errorsOf({ trackedPayCycles: 'PC-1' }).trackedPayCycles).toMatch(/list/)
  })

  it('returns every field error at once and leaves the current settings untouched', () => {
    const current = defaultSettings()
    const result = validateSettingsPatch({ environment: 'qa', pageSize: -1, clientId: 'ok' }, current)
    expect(result).toEqual({
      ok: false,
      fieldErrors: {
        environment: 'Choose Demo, Staging or Production.',
        pageSize: 'Page size must be a whole number from 1 to 10000.',
      },
    })
    expect(current).toEqual(DEFAULT_SETTINGS)
  })

  it('refuses fields that are not settings, naming the field but never echoing its value', () => {
    const result = validateSettingsPatch({ clientSecret: 'super-secret-value' })
    expect(result.ok).toBe(false)
    expect(JSON.stringify(result)).toContain('clientSecret')
    expect(JSON.stringify(result)).not.toContain('super-secret-value')
  })
})
