import { describe, expect, it } from 'vitest'
import { applySettingsPatch, type Settings } from '../../src/shared/settings-schema'
import { NETWORK_DEFAULTS, PAY_DISPLAY_DEFAULTS } from '../../src/shared/settings-rules'
import {
  checkForm,
  toForm,
  toPatch,
  type SettingsForm,
  type SettingsFormErrors,
} from '../../src/renderer/src/settings/settings-form'

const SAVED: Settings = {
  environment: 'demo',
  baseUrls: { staging: '', production: '' },
  clientId: 'rosterdesk-demo',
  redirectUri: 'com.rosterdesk.app:/oauth/callback',
  scopes: 'read',
  tenantId: 'tenant-demo',
  pageSize: 500,
  concurrency: 4,
  trackedPayCycles: ['PC-2026-11-A'],
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
}

/** A form the clerk edited: a new environment with its address, and values typed loosely. */
const EDITED: Partial<SettingsForm> = {
  environment: 'staging',
  stagingUrl: ' https://s.example.com/ ',
  tenantId: ' t-1 ',
  scopes: 'read,',
  pageSize: ' 500 ',
  trackedPayCycles: ['PC-2026-11-A', 'PC-2026-11-A'],
}

function errorsOf(changes: Partial<SettingsForm>): SettingsFormErrors {
  const checked = checkForm({ ...toForm(SAVED), ...changes })
  return checked.ok ? {} : checked.errors
}

function settingsOf(changes: Partial<SettingsForm>): Settings {
  const checked = checkForm({ ...toForm(SAVED), ...changes })
  if (!checked.ok) throw new Error(`expected the form to pass: ${JSON.stringify(checked.errors)}`)
  return checked.settings
}

describe('settings form', () => {
  it('round-trips the saved settings without a change', () => {
    expect(checkForm(toForm(SAVED))).toEqual({ ok: true, settings: SAVED })
    expect(toPatch(settingsOf({}), SAVED)).toEqual({})
  })

  it('accepts the two kinds of redirect URI a desktop app can receive', () => {
    for (const redirectUri of ['com.rosterdesk.app:/oauth/callback', 'http://127.0.0.1:8765/callback']) {
      expect(errorsOf({ redirectUri }).redirectUri).toBeUndefined()
    }
    expect(errorsOf({ redirectUri: 'rosterdesk:/cb' }).redirectUri).toMatch(/reverse-domain/)
    expect(errorsOf({ redirectUri: 'com.rosterdesk.app://cb' }).redirectUri).toMatch(/single slash/)
  })

  it('allows plain http only for this computer', () => {
    expect(errorsOf({ stagingUrl: 'http://127.0.0.1:9000' }).stagingUrl).toBeUndefined()
    expect(errorsOf({ stagingUrl: 'http://10.0.0.5' }).stagingUrl).toMatch(/https:\/\//)
    expect(errorsOf({ productionUrl: 'https://p.example.com/?x=1' }).productionUrl).toMatch(/\? or #/)
  })

  it('checks lengths, numbers and characters, every field at once', () => {
    const errors = errorsOf({
      clientId: 'has space',
      scopes: ' , ',
      tenantId: 'ténant',
      pageSize: '1.5',
      concurrency: '17',
      trackedPayCycles: ['x'.repeat(101)],
    })
    expect(Object.keys(errors).sort()).toEqual(
      ['clientId', 'concurrency', 'pageSize', 'scopes', 'tenantId', 'trackedPayCycles'].sort(),
    )
  })

  it('reads the freshness fields: hours typed as text, sync on launch from its checkbox', () => {
    expect(toForm(SAVED)).toMatchObject({ staleAfterHours: '24', syncOnLaunch: false, syncEveryHours: '0' })
    const next = settingsOf({ staleAfterHours: ' 48 ', syncOnLaunch: true, syncEveryHours: '4' })
    expect(toPatch(next, SAVED)).toEqual({ staleAfterHours: 48, syncOnLaunch: true, syncEveryHours: 4 })
    expect(errorsOf({ staleAfterHours: '0', syncEveryHours: 'daily' })).toEqual({
      staleAfterHours:
        'Enter how many hours old the data may get before RosterDesk warns: a whole number from 1 to 720.',
      syncEveryHours:
        'Enter how many hours apart automatic syncs run: a whole number from 0 to 24 (0 turns them off).',
    })
  })

  it('reads the sync scope from its checkbox: ticked is active employees only', () => {
    expect(toForm(SAVED).syncActiveOnly).toBe(false)
    expect(toForm({ ...SAVED, syncScope: 'active' }).syncActiveOnly).toBe(true)
    expect(toPatch(settingsOf({ syncActiveOnly: true }), SAVED)).toEqual({ syncScope: 'active' })
    expect(toPatch(settingsOf({ syncActiveOnly: false }), { ...SAVED, syncScope: 'active' })).toEqual({
      syncScope: 'all',
    })
  })

  it('reads the sync limits (Advanced) typed as text, and sends only the ones changed', () => {
    expect(toForm(SAVED)).toMatchObject({
      requestTimeoutSeconds: '30',
      syncDeadlineMinutes: '120',
      maxEmployees: '5000000',
    })
    const next = settingsOf({ requestTimeoutSeconds: ' 90 ', maxEmployees: '20000000' })
    expect(toPatch(next, SAVED)).toEqual({ requestTimeoutSeconds: 90, maxEmployees: 20_000_000 })
    expect(
      errorsOf({ requestTimeoutSeconds: '0', syncDeadlineMinutes: 'two hours', maxEmployees: '' }),
    ).toEqual({
      requestTimeoutSeconds: 'Longest wait for an answer (seconds) must be a whole number from 1 to 600.',
      syncDeadlineMinutes: 'Longest sync (minutes) must be a whole number from 1 to 1,440.',
      maxEmployees: 'Most employees must be a whole number from 1 to 1,000,000,000.',
    })
  })

  it('takes the pay cycles ticked, and saves them without blanks or repeats', () => {
    expect(toForm(SAVED).trackedPayCycles).toEqual(['PC-2026-11-A'])
    expect(toPatch(settingsOf({ trackedPayCycles: [' PC-1', 'PC-2', 'PC-1 ', ''] }), SAVED)).toEqual({
      trackedPayCycles: ['PC-1', 'PC-2'],
    })
    expect(toPatch(settingsOf({ trackedPayCycles: [] }), SAVED)).toEqual({ trackedPayCycles: [] })
  })

  it('sends only what changed, normalised as main stores it, both addresses together', () => {
    // The scopes and page size are typed differently, the pay cycle ticked twice, but all normalise to what is saved.
    expect(toPatch(settingsOf(EDITED), SAVED)).toEqual({
      environment: 'staging',
      baseUrls: { staging: 'https://s.example.com', production: '' },
      tenantId: 't-1',
    })
  })
})

describe('the form and main share one schema', () => {
  // Each bad input as the clerk types it into the form, and as a settings:update patch reaches main, whose
  // SettingsStore.update is applySettingsPatch over the saved settings (test/unit/main/core/settings holds it to that).
  const cases: ReadonlyArray<{ form: Partial<SettingsForm>; patch: Record<string, unknown> }> = [
    { form: { pageSize: '0' }, patch: { pageSize: '0' } },
    { form: { concurrency: 'four' }, patch: { concurrency: 'four' } },
    {
      form: { stagingUrl: 'http://payroll.example' },
      patch: { baseUrls: { staging: 'http://payroll.example' } },
    },
    { form: { productionUrl: 'payroll' }, patch: { baseUrls: { production: 'payroll' } } },
    { form: { environment: 'production' }, patch: { environment: 'production' } },
    { form: { clientId: 'has space' }, patch: { clientId: 'has space' } },
    { form: { redirectUri: 'https://r.example/cb' }, patch: { redirectUri: 'https://r.example/cb' } },
    { form: { scopes: 'read "all"' }, patch: { scopes: 'read "all"' } },
    { form: { tenantId: 'my tenant' }, patch: { tenantId: 'my tenant' } },
    { form: { trackedPayCycles: ['x'.repeat(101)] }, patch: { trackedPayCycles: ['x'.repeat(101)] } },
    { form: { staleAfterHours: '721' }, patch: { staleAfterHours: '721' } },
    { form: { syncEveryHours: '-1' }, patch: { syncEveryHours: -1 } },
    { form: { requestTimeoutSeconds: '601' }, patch: { requestTimeoutSeconds: '601' } },
    { form: { syncDeadlineMinutes: '0' }, patch: { syncDeadlineMinutes: 0 } },
    { form: { maxEmployees: '5,000,000' }, patch: { maxEmployees: '5,000,000' } },
  ]

  it('reports the same message for the same bad input, under the matching field', () => {
    for (const { form, patch } of cases) {
      const main = applySettingsPatch(patch, SAVED)
      if (main.ok) throw new Error(`main accepted ${JSON.stringify(patch)}`)
      const fromMain = Object.values(main.fieldErrors)
      expect(fromMain).toHaveLength(1)
      expect(Object.values(errorsOf(form))).toEqual(fromMain)
    }
  })

  it('accepts what main accepts and ends with the same settings', () => {
    const next = settingsOf(EDITED)
    expect(applySettingsPatch(toPatch(next, SAVED), SAVED)).toEqual({ ok: true, settings: next })
  })
})
