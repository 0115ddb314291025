import { describe, expect, it } from 'vitest'
import { NETWORK_DEFAULTS } from '../../../../../src/shared/settings-rules'
import {
  effectiveProxyChoice,
  proxyChoiceFromEnvironment,
  proxyChoiceFromSwitches,
  type NetworkSettings,
} from '../../../../../src/main/core/settings/network-settings'
import { electronProxyConfig } from '../../../../../src/main/shell/network/proxy-config'
import { proxyRoute } from '../../../../../src/main/core-host/process/app-network'

const profile = (patch: Partial<NetworkSettings> = {}): NetworkSettings => ({ ...NETWORK_DEFAULTS, ...patch })

describe('the proxy in force', () => {
  it('follows one precedence: policy, command line, environment, profile, default', () => {
    const fixed = profile({
      proxyMode: 'fixed',
      proxyUrl: 'http://profile.example:8080',
      proxyBypass: '*.corp',
    })
    const commandLine = proxyChoiceFromSwitches({
      proxyServer: 'http://127.0.0.1:3128',
      proxyBypassList: '<-loopback>',
    })
    const environment = proxyChoiceFromEnvironment({
      HTTPS_PROXY: 'http://user:secret@env.example:3128',
      NO_PROXY: 'localhost,.internal',
    })
    expect(effectiveProxyChoice({ profile: profile() })).toEqual({
      choice: { mode: 'system' },
      source: 'default',
    })
    expect(effectiveProxyChoice({ profile: fixed })).toEqual({
      choice: { mode: 'fixed', proxyUrl: 'http://profile.example:8080', bypass: '*.corp' },
      source: 'profile',
    })
    expect(effectiveProxyChoice({ profile: fixed, ...(environment ? { environment } : {}) })).toEqual({
      // The user name and password in the variable never become part of a proxy rule.
      choice: { mode: 'fixed', proxyUrl: 'http://env.example:3128', bypass: 'localhost, .internal' },
      source: 'environment',
    })
    const both = {
      profile: fixed,
      ...(environment ? { environment } : {}),
      ...(commandLine ? { commandLine } : {}),
    }
    expect(effectiveProxyChoice(both)).toEqual({
      choice: { mode: 'fixed', proxyUrl: 'http://127.0.0.1:3128', bypass: '<-loopback>' },
      source: 'command-line',
    })
    expect(effectiveProxyChoice({ ...both, policy: { mode: 'none' } })).toEqual({
      choice: { mode: 'none' },
      source: 'policy',
    })
  })

  it('reads Chromium’s switches in Chromium’s order, and nothing when none is given', () => {
    expect(proxyChoiceFromSwitches({})).toBeUndefined()
    expect(proxyChoiceFromSwitches({ noProxyServer: true, proxyServer: 'x:1' })).toEqual({ mode: 'none' })
    expect(proxyChoiceFromSwitches({ proxyPacUrl: 'http://wpad/wpad.dat', proxyServer: 'x:1' })).toEqual({
      mode: 'pac',
      pacUrl: 'http://wpad/wpad.dat',
    })
    expect(proxyChoiceFromEnvironment({})).toBeUndefined()
    expect(proxyChoiceFromEnvironment({ http_proxy: 'proxy.example:80' })).toEqual({
      mode: 'fixed',
      proxyUrl: 'http://proxy.example',
      bypass: '',
    })
  })

  it('reaches Electron as the ProxyConfig setProxy takes', () => {
    expect(electronProxyConfig({ mode: 'system' })).toEqual({ mode: 'system' })
    expect(electronProxyConfig({ mode: 'none' })).toEqual({ mode: 'direct' })
    expect(
      electronProxyConfig({
        mode: 'fixed',
        proxyUrl: 'http://p.example:8080',
        bypass: '*.corp, 10.0.0.0/8 <local>',
      }),
    ).toEqual({
      mode: 'fixed_servers',
      proxyRules: 'http://p.example:8080',
      proxyBypassRules: '*.corp,10.0.0.0/8,<local>',
    })
    expect(electronProxyConfig({ mode: 'pac', pacUrl: 'http://wpad.example/proxy.pac' })).toEqual({
      mode: 'pac_script',
      pacScript: 'http://wpad.example/proxy.pac',
    })
  })

  it('reads what ses.resolveProxy answers as the route it names first', () => {
    expect(proxyRoute('DIRECT')).toEqual({ kind: 'direct', source: 'Electron resolved “DIRECT”' })
    expect(proxyRoute('PROXY proxy.corp:8080; DIRECT')).toEqual({
      kind: 'proxy',
      url: 'http://proxy.corp:8080',
      source: 'Electron resolved “PROXY proxy.corp:8080; DIRECT”',
    })
    expect(proxyRoute('SOCKS5 s.corp:1080')).toMatchObject({ kind: 'proxy', url: 'socks5://s.corp:1080' })
  })
})
