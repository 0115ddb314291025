import { describe, expect, it } from 'vitest'
import { destinationChanges } from '../../../../../src/main/core/settings/network-destinations'
import { defaultSettings } from '../../../../../src/main/core/settings/settings-defaults'

/** What main asks the clerk to confirm (issue 31, point 2): each new host requests would go to, and nothing else. */

const base = {
  ...defaultSettings(),
  environment: 'production' as const,
  baseUrls: { staging: '', production: 'https://payroll.example.com' },
}

describe('destinationChanges', () => {
  it('names a new service address in force, a new proxy and a new PAC address by host', () => {
    expect(
      destinationChanges(base, {
        ...base,
        baseUrls: { ...base.baseUrls, production: 'https://payroll.attacker.example:8443/' },
      }),
    ).toEqual([{ kind: 'service', host: 'payroll.attacker.example:8443' }])
    expect(
      destinationChanges(base, { ...base, proxyMode: 'fixed', proxyUrl: 'proxy.attacker.example:3128' }),
    ).toEqual([{ kind: 'proxy', host: 'proxy.attacker.example:3128' }])
    expect(
      destinationChanges(base, { ...base, proxyMode: 'pac', pacUrl: 'http://wpad.attacker.example/p.pac' }),
    ).toEqual([{ kind: 'pac', host: 'wpad.attacker.example' }])
    // Another environment's address is the one in force once it is chosen.
    expect(
      destinationChanges(base, {
        ...base,
        environment: 'staging',
        baseUrls: { ...base.baseUrls, staging: 'https://staging.example' },
      }),
    ).toEqual([{ kind: 'service', host: 'staging.example' }])
  })

  it('names nothing for a change that sends no request to a new host', () => {
    const paged = { ...base, pageSize: 50 }
    expect(destinationChanges(base, paged)).toEqual([])
    expect(
      destinationChanges(base, {
        ...base,
        baseUrls: { ...base.baseUrls, production: 'https://payroll.example.com/' },
      }),
    ).toEqual([])
    // An address typed for the environment not in force, Demo, no proxy, the OS's settings.
    expect(
      destinationChanges(base, { ...base, baseUrls: { ...base.baseUrls, staging: 'https://x.example' } }),
    ).toEqual([])
    expect(destinationChanges(base, { ...base, environment: 'demo' })).toEqual([])
    const proxied = { ...base, proxyMode: 'fixed' as const, proxyUrl: 'http://proxy.example:8080' }
    expect(destinationChanges(proxied, { ...proxied, proxyMode: 'none' })).toEqual([])
    expect(destinationChanges(proxied, { ...proxied, proxyMode: 'system' })).toEqual([])
  })
})
