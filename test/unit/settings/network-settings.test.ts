import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../../../src/main/core/settings/settings-defaults'
import { applySettingsPatch, type Settings } from '../../../src/shared/settings-schema'

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
