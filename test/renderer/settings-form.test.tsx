import { describe, expect, it } from 'vitest'
import type { Settings } from '../../src/shared/domain'
import { parsePayCycles, toForm, toPatch, validateForm } from '../../src/renderer/src/settings/settings-form'

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
}

describe('settings form', () => {
  it('round-trips the saved settings without a change', () => {
    expect(validateForm(toForm(SAVED))).toEqual({})
    expect(toPatch(toForm(SAVED), SAVED)).toEqual({})
  })

  it('accepts the two kinds of redirect URI a desktop app can receive', () => {
    for (const redirectUri of ['com.rosterdesk.app:/oauth/callback', 'http://127.0.0.1:8765/callback']) {
      expect(validateForm({ ...toForm(SAVED), redirectUri }).redirectUri).toBeUndefined()
    }
    expect(validateForm({ ...toForm(SAVED), redirectUri: 'rosterdesk:/cb' }).redirectUri).toMatch(
      /reverse-domain/,
    )
    expect(validateForm({ ...toForm(SAVED), redirectUri: 'com.rosterdesk.app://cb' }).redirectUri).toMatch(
      /single slash/,
    )
  })

  it('allows plain http only for this computer', () => {
    expect(validateForm({ ...toForm(SAVED), stagingUrl: 'http://127.0.0.1:9000' }).stagingUrl).toBeUndefined()
    expect(validateForm({ ...toForm(SAVED), stagingUrl: 'http://10.0.0.5' }).stagingUrl).toMatch(/https:\/\//)
    expect(
      validateForm({ ...toForm(SAVED), productionUrl: 'https://p.example.com/?x=1' }).productionUrl,
    ).toMatch(/\? or #/)
  })

  it('checks lengths, numbers and characters as main does', () => {
    const errors = validateForm({
      ...toForm(SAVED),
      clientId: 'has space',
      scopes: ' , ',
      tenantId: 'ténant',
      pageSize: '1.5',
      concurrency: '17',
      trackedPayCycles: 'x'.repeat(101),
    })
    expect(Object.keys(errors).sort()).toEqual(
      ['clientId', 'concurrency', 'pageSize', 'scopes', 'tenantId', 'trackedPayCycles'].sort(),
    )
  })

  it('reads pay cycles separated by commas or lines, without blanks or repeats', () => {
    expect(parsePayCycles(' PC-1,\nPC-2 ,, PC-1\n')).toEqual(['PC-1', 'PC-2'])
  })

  it('sends both addresses together when either changes, trimmed', () => {
    const form = { ...toForm(SAVED), stagingUrl: ' https://s.example.com ', environment: 'staging' as const }
    expect(toPatch(form, SAVED)).toEqual({
      environment: 'staging',
      baseUrls: { staging: 'https://s.example.com', production: '' },
    })
  })
})
