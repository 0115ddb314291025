import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS, defaultSettings } from '../../../src/main/core/settings/settings-defaults'
import {
  normalizeScopes,
  redirectUriProblem,
  SETTINGS_LIMITS,
  SYNC_LIMITS,
  SYNC_LIMIT_DEFAULTS,
  SYNC_LIMIT_SETTINGS,
  syncLimitLabel,
} from '../../../src/shared/settings-rules'
import {
  applySettingsPatch,
  checkValue,
  serviceAddressSchema,
  settingsSchema,
  settingsToSaveSchema,
  syncLimitSchemas,
  type Settings,
} from '../../../src/shared/settings-schema'

function errorsOf(patch: unknown, current: Settings = DEFAULT_SETTINGS): Record<string, string> {
  const result = applySettingsPatch(patch, current)
  if (result.ok) throw new Error('expected the patch to be refused')
  return result.fieldErrors
}

function settingsOf(patch: unknown, current: Settings = DEFAULT_SETTINGS): Settings {
  const result = applySettingsPatch(patch, current)
  if (!result.ok) throw new Error(`expected the patch to be accepted: ${JSON.stringify(result.fieldErrors)}`)
  return result.settings
}

describe('default settings', () => {
  it('satisfy the schema and the issue: demo, empty addresses, private-use redirect, read scope', () => {
    expect(settingsToSaveSchema.parse(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS)
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
      // Every employee is synced until someone chooses active employees only.
      syncScope: 'all',
      // Freshness: warn after a day; automatic syncs off until a clerk or IT turns them on.
      staleAfterHours: 24,
      syncOnLaunch: false,
      syncEveryHours: 0,
      // The sync's limits (Advanced): the sync engine's own defaults.
      requestTimeoutSeconds: 30,
      syncDeadlineMinutes: 120,
      maxEmployees: 5_000_000,
      // Network: the OS's proxy settings and certificate store, nothing extra.
      proxyMode: 'system',
      proxyUrl: '',
      proxyBypass: '',
      pacUrl: '',
      extraCertificatesFile: '',
      clientCertificateSubject: '',
      clientCertificateIssuer: '',
      // Numbers and dates follow the computer's regional settings.
      formatLocale: 'system',
      // Pay data: no currency (the spec names none), pay shown.
      currency: '',
      hidePay: false,
    })
    expect(applySettingsPatch({}, DEFAULT_SETTINGS)).toEqual({ ok: true, settings: DEFAULT_SETTINGS })
  })

  it('hands out copies that cannot change the defaults', () => {
    const copy = defaultSettings()
    copy.baseUrls.staging = 'https://changed.example'
    expect(DEFAULT_SETTINGS.baseUrls.staging).toBe('')
  })
})

describe('applySettingsPatch', () => {
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
    expect(errorsOf({ baseUrls: 'https://x.example' })['baseUrls.staging']).toBe(
      'RosterDesk received service addresses it cannot read.',
    )
  })

  it('lets an address be emptied (not configured yet), and changes one address alone', () => {
    const current = { ...defaultSettings(), baseUrls: { staging: 'https://s.example', production: '' } }
    expect(settingsOf({ baseUrls: { staging: '', production: '' } }, current).baseUrls.staging).toBe('')
    expect(settingsOf({ baseUrls: { production: 'https://p.example/' } }, current).baseUrls).toEqual({
      staging: 'https://s.example',
      production: 'https://p.example',
    })
  })

  it('asks for the address of the environment chosen, under that address', () => {
    expect(errorsOf({ environment: 'production' })).toEqual({
      'baseUrls.production': 'Enter the Production address to use the Production environment.',
    })
    expect(errorsOf({ environment: 'staging', baseUrls: { staging: '  ' } })).toEqual({
      'baseUrls.staging': 'Enter the Staging address to use the Staging environment.',
    })
    // An address with its own problem is told that problem, not asked for again.
    expect(errorsOf({ environment: 'staging', baseUrls: { staging: 'payroll' } })).toEqual({
      'baseUrls.staging':
        'The Staging address must be a full web address such as https://payroll.example.com.',
    })
    expect(settingsOf({ environment: 'staging', baseUrls: { staging: 'https://s.example' } })).toMatchObject({
      environment: 'staging',
    })
    // Loading checks each field by its own rule only, so a file saved that way still loads.
    expect(applySettingsPatch({ environment: 'production' }, DEFAULT_SETTINGS, settingsSchema)).toMatchObject(
      { ok: true, settings: { environment: 'production' } },
    )
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
    expect(settingsOf({ redirectUri: ' http://127.0.0.1/cb ' }).redirectUri).toBe('http://127.0.0.1/cb')
  })

  it('checks numbers as whole numbers within range, accepting digits typed as text', () => {
    expect(settingsOf({ pageSize: '250', concurrency: 8 })).toMatchObject({ pageSize: 250, concurrency: 8 })
    const errors = errorsOf({ pageSize: 0, concurrency: 2.5 })
    expect(errors.pageSize).toBe('Page size must be a whole number from 1 to 10,000.')
    expect(errors.concurrency).toBe('Parallel requests must be a whole number from 1 to 16.')
    for (const notWhole of ['1e3', '0x10', '', 'four', null, true]) {
      expect(errorsOf({ pageSize: notWhole }).pageSize).toBe(errors.pageSize)
    }
    expect(settingsOf({ pageSize: SETTINGS_LIMITS.pageSize.max }).pageSize).toBe(10_000)
    expect(errorsOf({ pageSize: SETTINGS_LIMITS.pageSize.max + 1 }).pageSize).toBe(errors.pageSize)
  })

  it('checks the sync limits (Advanced) by the rules the sync engine and the CLI use, labels and ranges included', () => {
    expect(
      settingsOf({ requestTimeoutSeconds: ' 90 ', syncDeadlineMinutes: 30, maxEmployees: '20000000' }),
    ).toMatchObject({ requestTimeoutSeconds: 90, syncDeadlineMinutes: 30, maxEmployees: 20_000_000 })
    const errors = errorsOf({ requestTimeoutSeconds: 0, syncDeadlineMinutes: 1441, maxEmployees: '5e6' })
    expect(errors).toEqual({
      requestTimeoutSeconds: 'Longest wait for an answer (seconds) must be a whole number from 1 to 600.',
      syncDeadlineMinutes: 'Longest sync (minutes) must be a whole number from 1 to 1,440.',
      maxEmployees: 'Most employees must be a whole number from 1 to 1,000,000,000.',
    })
    for (const key of SYNC_LIMIT_SETTINGS) {
      // One rule: the settings field is the very schema the sync engine checks its option with.
      expect(settingsSchema.shape[key]).toBe(syncLimitSchemas[key])
      expect(DEFAULT_SETTINGS[key]).toBe(SYNC_LIMIT_DEFAULTS[key])
      expect(settingsOf({ [key]: SYNC_LIMITS[key].max })[key]).toBe(SYNC_LIMITS[key].max)
      expect(errorsOf({ [key]: SYNC_LIMITS[key].max + 1 })[key]).toBe(errors[key])
      expect(errorsOf({ [key]: SYNC_LIMITS[key].min - 1 })[key]).toBe(errors[key])
      expect(errors[key]).toContain(syncLimitLabel(key))
    }
  })

  it('checks the freshness settings: hours as whole numbers in range, sync on launch as on or off', () => {
    expect(settingsOf({ staleAfterHours: '72', syncOnLaunch: true, syncEveryHours: ' 4 ' })).toMatchObject({
      staleAfterHours: 72,
      syncOnLaunch: true,
      syncEveryHours: 4,
    })
    // 0 turns automatic syncs off; a warning after 0 hours would never go away, so it starts at 1.
    expect(settingsOf({ syncEveryHours: 0 }).syncEveryHours).toBe(0)
    const errors = errorsOf({ staleAfterHours: 0, syncOnLaunch: 'yes', syncEveryHours: 25 })
    expect(errors).toEqual({
      staleAfterHours:
        'Enter how many hours old the data may get before RosterDesk warns: a whole number from 1 to 720.',
      syncOnLaunch: 'Choose whether RosterDesk syncs when it starts: on or off.',
      syncEveryHours:
        'Enter how many hours apart automatic syncs run: a whole number from 0 to 24 (0 turns them off).',
    })
    for (const notWhole of ['1.5', '', 'daily', null]) {
      expect(errorsOf({ syncEveryHours: notWhole }).syncEveryHours).toBe(errors.syncEveryHours)
      expect(errorsOf({ staleAfterHours: notWhole }).staleAfterHours).toBe(errors.staleAfterHours)
    }
    expect(settingsOf({ staleAfterHours: SETTINGS_LIMITS.staleAfterHours.max }).staleAfterHours).toBe(720)
  })

  it('trims client and tenant IDs and refuses characters that cannot travel in a header', () => {
    expect(settingsOf({ clientId: ' abc ', tenantId: ' t-1 ' })).toMatchObject({
      clientId: 'abc',
      tenantId: 't-1',
    })
    expect(errorsOf({ clientId: 'a b' }).clientId).toMatch(/spaces/)
    expect(errorsOf({ clientId: 'a\u0007b' }).clientId).toMatch(/spaces/)
    expect(errorsOf({ tenantId: 'tenant é' }).tenantId).toMatch(/spaces or accented/)
    expect(errorsOf({ clientId: 42 }).clientId).toBe('Enter the client ID as text.')
  })

  it('takes the sync scope as all or active, and words anything else for a clerk', () => {
    expect(settingsOf({ syncScope: 'active' }).syncScope).toBe('active')
    expect(settingsOf({ syncScope: 'all' }).syncScope).toBe('all')
    for (const wrong of ['Active', 'inactive', true, 1]) {
      expect(errorsOf({ syncScope: wrong }).syncScope).toBe(
        'Choose whether to sync all employees or active employees only.',
      )
    }
  })

  it('trims and de-duplicates tracked pay cycles', () => {
    expect(settingsOf({ trackedPayCycles: [' PC-1 ', 'PC-1', '', 'PC-2'] }).trackedPayCycles).toEqual([
      'PC-1',
      'PC-2',
    ])
    expect(errorsOf({ trackedPayCycles: 'PC-1' }).trackedPayCycles).toMatch(/list/)
    expect(errorsOf({ trackedPayCycles: ['PC-1', 7] }).trackedPayCycles).toBe(
      'Each tracked pay cycle must be text.',
    )
    expect(errorsOf({ trackedPayCycles: ['x'.repeat(101)] }).trackedPayCycles).toBe(
      'A pay cycle ID is at most 100 characters.',
    )
    const many = Array.from({ length: 101 }, (_, i) => `PC-${i}`)
    expect(errorsOf({ trackedPayCycles: many }).trackedPayCycles).toBe('Track at most 100 pay cycles.')
  })

  it('returns every field error at once and leaves the current settings untouched', () => {
    const current = defaultSettings()
    const result = applySettingsPatch({ environment: 'qa', pageSize: -1, clientId: 'ok' }, current)
    expect(result).toEqual({
      ok: false,
      fieldErrors: {
        environment: 'Choose Demo, Staging or Production.',
        pageSize: 'Page size must be a whole number from 1 to 10,000.',
      },
    })
    expect(current).toEqual(DEFAULT_SETTINGS)
  })

  it('treats a field set to undefined as left out', () => {
    expect(settingsOf({ pageSize: undefined, baseUrls: { staging: undefined } })).toEqual(DEFAULT_SETTINGS)
  })

  it('refuses fields that are not settings, naming the field but never echoing its value', () => {
    const result = applySettingsPatch({ clientSecret: 'super-secret-value' }, DEFAULT_SETTINGS)
    expect(result).toEqual({
      ok: false,
      fieldErrors: { environment: 'These are not RosterDesk settings: clientSecret.' },
    })
    expect(JSON.stringify(result)).not.toContain('super-secret-value')
    expect(errorsOf(JSON.parse('{"__proto__": {"polluted": true}}'))).toEqual({
      environment: 'These are not RosterDesk settings: __proto__.',
    })
    expect(errorsOf(['pageSize', 5])).toEqual({ environment: 'RosterDesk received settings it cannot read.' })
  })
})

describe('serviceAddressSchema', () => {
  it('is the address rule with a service label, and requires an address', () => {
    expect(checkValue(serviceAddressSchema, ' https://payroll.example/api/ ')).toEqual({
      ok: true,
      value: 'https://payroll.example/api',
    })
    expect(checkValue(serviceAddressSchema, 'http://payroll.example')).toEqual({
      ok: false,
      problem: 'The service address must start with https:// (plain http is allowed only for this computer).',
    })
    expect(checkValue(serviceAddressSchema, '')).toEqual({
      ok: false,
      problem: 'Enter the service address, for example https://payroll.example.com.',
    })
  })
})

describe('Settings → Network', () => {
  it('starts on the system settings, with no proxy, PAC file or extra certificates of its own', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({
      proxyMode: 'system',
      proxyUrl: '',
      proxyBypass: '',
      pacUrl: '',
      extraCertificatesFile: '',
    })
  })

  it('keeps a proxy as scheme, host and port, adding http:// when none was typed', () => {
    expect(settingsOf({ proxyMode: 'fixed', proxyUrl: ' proxy.corp.example:8080/ ' }).proxyUrl).toBe(
      'http://proxy.corp.example:8080',
    )
    expect(settingsOf({ proxyMode: 'fixed', proxyUrl: 'socks5://10.0.0.1:1080' }).proxyUrl).toBe(
      'socks5://10.0.0.1:1080',
    )
  })

  it('asks for the address of the proxy or PAC file chosen, and only then', () => {
    expect(errorsOf({ proxyMode: 'fixed' })).toEqual({
      proxyUrl: 'Enter the proxy address, for example http://proxy.example.com:8080.',
    })
    expect(errorsOf({ proxyMode: 'pac' })).toEqual({
      pacUrl: 'Enter the PAC file address, for example http://wpad.example.com/proxy.pac.',
    })
    // A proxy kept from an earlier choice does not stand in the way of another mode.
    expect(settingsOf({ proxyMode: 'none', proxyUrl: 'http://proxy:3128' }).proxyMode).toBe('none')
  })

  it('refuses a proxy address holding a user name or password, since settings files are readable', () => {
    expect(errorsOf({ proxyMode: 'fixed', proxyUrl: 'http://ann:secret@proxy:8080' }).proxyUrl).toBe(
      'The proxy address must not contain a user name or password: RosterDesk asks for them when the proxy does.',
    )
    const errors = errorsOf({ proxyMode: 'fixed', proxyUrl: 'http://ann:secret@proxy:8080' })
    expect(JSON.stringify(errors)).not.toContain('secret')
  })

  it('refuses proxies that are not proxies, and PAC files that are not addresses', () => {
    expect(errorsOf({ proxyUrl: 'ftp://proxy:21' }).proxyUrl).toMatch(/must start with http:\/\//)
    expect(errorsOf({ proxyUrl: 'http://proxy:8080/path' }).proxyUrl).toMatch(/host and port only/)
    expect(errorsOf({ pacUrl: 'proxy.pac' }).pacUrl).toMatch(/full address/)
    expect(errorsOf({ pacUrl: 'javascript:alert(1)' }).pacUrl).toMatch(/must start with http:\/\//)
    expect(settingsOf({ pacUrl: 'file:///etc/proxy.pac' }).pacUrl).toBe('file:///etc/proxy.pac')
  })

  it('keeps the bypass list as entries joined by commas, and names an entry it cannot read', () => {
    expect(
      settingsOf({ proxyBypass: '*.corp.example; 10.0.0.0/8  <local>,,*.corp.example' }).proxyBypass,
    ).toBe('*.corp.example, 10.0.0.0/8, <local>')
    expect(errorsOf({ proxyBypass: 'good.example, bad"entry' }).proxyBypass).toBe(
      '“bad"entry” is not a host name, a pattern such as *.example.com, or an address range.',
    )
  })

  it('refuses an unknown proxy mode with the choices in words', () => {
    expect(errorsOf({ proxyMode: 'auto' }).proxyMode).toBe(
      "Choose how RosterDesk reaches the service: the system's settings, no proxy, a proxy or a PAC file.",
    )
  })
})
