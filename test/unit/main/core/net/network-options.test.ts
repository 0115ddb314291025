import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readCertificateFile } from '../../../../../src/main/core/net/node-fetch'
import {
  bypassesProxy,
  describeNodeNetwork,
  proxyFor,
  resolveNodeNetwork,
  routeFor,
  type ProfileNetworkSettings,
} from '../../../../../src/main/core/net/network-options'
import { NETWORK_DEFAULTS } from '../../../../../src/shared/settings-rules'

const profile = (patch: Partial<ProfileNetworkSettings>): ProfileNetworkSettings => ({
  ...NETWORK_DEFAULTS,
  ...patch,
})
const SERVICE = 'https://payroll.example/api/employees'

describe('resolveNodeNetwork: the one precedence', () => {
  const env = { HTTPS_PROXY: 'http://env-proxy:3128', NO_PROXY: 'internal.example' }

  it('takes the flag over the environment over the profile, and the policy over all', () => {
    const fixed = profile({ proxyMode: 'fixed', proxyUrl: 'http://profile-proxy:8080' })
    expect(resolveNodeNetwork({ env: {}, profile: fixed }).httpsProxy?.label).toBe('profile-proxy:8080')
    expect(resolveNodeNetwork({ env, profile: fixed })).toMatchObject({
      proxySource: 'environment',
      httpsProxy: { label: 'env-proxy:3128' },
    })
    const flagged = resolveNodeNetwork({ env, profile: fixed, flags: { proxy: 'http://flag-proxy:1080' } })
    expect(flagged).toMatchObject({ proxySource: 'command-line', httpsProxy: { label: 'flag-proxy:1080' } })
    // NO_PROXY still applies to --proxy, as curl reads it.
    expect(flagged.noProxy).toBe('internal.example')
    const policy = resolveNodeNetwork({ env, flags: { proxy: 'none' }, policy: { proxy: 'http://policy:9' } })
    expect(policy).toMatchObject({ proxySource: 'policy', httpsProxy: { label: 'policy:9' } })
  })

  it('goes direct for --proxy none and for a profile that says No proxy (without an environment proxy)', () => {
    const none = resolveNodeNetwork({ env, flags: { proxy: 'none' } })
    expect(proxyFor(none, SERVICE)).toBeUndefined()
    expect(none.proxySource).toBe('command-line')
    expect(proxyFor(resolveNodeNetwork({ env: {}, profile: profile({ proxyMode: 'none' }) }), SERVICE)).toBe(
      undefined,
    )
  })

  it('reads the environment in either case, HTTP_PROXY for https:// when HTTPS_PROXY is unset', () => {
    expect(resolveNodeNetwork({ env: { https_proxy: 'http://lower:1' } }).httpsProxy?.label).toBe('lower:1')
    const http = resolveNodeNetwork({ env: { HTTP_PROXY: 'http://plain:2' } })
    expect(http.httpsProxy?.label).toBe('plain:2')
    expect(http.proxySource).toBe('environment')
    expect(resolveNodeNetwork({ env: {} })).toMatchObject({ proxySource: 'default', httpsProxy: undefined })
  })

  it('says a PAC profile is not supported here and uses the environment', () => {
    const pac = resolveNodeNetwork({
      env: {},
      profile: profile({ proxyMode: 'pac', pacUrl: 'http://wpad/proxy.pac' }),
    })
    expect(pac.notes).toHaveLength(1)
    expect(pac.notes[0]).toMatch(
      /PAC file \(http:\/\/wpad\/proxy\.pac\) is not supported on the command line/,
    )
    expect(pac.proxySource).toBe('default')
  })

  it('refuses credentials in --proxy and in the profile, takes them from ROSTERDESK_PROXY_USER / _PASSWORD', () => {
    expect(() => resolveNodeNetwork({ env: {}, flags: { proxy: 'http://u:p@proxy:8080' } })).toThrow(
      /^--proxy: a proxy address must not contain a user name or password.*ROSTERDESK_PROXY_USER/,
    )
    try {
      resolveNodeNetwork({ env: {}, flags: { proxy: 'http://u:p@proxy:8080' } })
    } catch (error) {
      expect(error).toMatchObject({ code: 'config', source: 'command-line' })
      expect((error as Error).message).not.toContain('u:p')
    }
    const credentials = { ROSTERDESK_PROXY_USER: 'clerk@corp', ROSTERDESK_PROXY_PASSWORD: 'p:w/d' }
    const flagged = resolveNodeNetwork({ env: credentials, flags: { proxy: 'proxy:8080' } })
    expect(flagged.httpsProxy).toMatchObject({ label: 'proxy:8080', hasCredentials: true })
    const url = new URL(flagged.httpsProxy?.url ?? '')
    expect([decodeURIComponent(url.username), decodeURIComponent(url.password)]).toEqual([
      'clerk@corp',
      'p:w/d',
    ])
    expect(describeNodeNetwork(flagged)).toBe('proxy proxy:8080, from the command line')
  })

  it('keeps the credentials in the environment’s proxy URL, and never describes them', () => {
    const network = resolveNodeNetwork({ env: { HTTPS_PROXY: 'http://me:secret@proxy.corp:3128' } })
    expect(network.httpsProxy).toMatchObject({ label: 'proxy.corp:3128', hasCredentials: true })
    expect(describeNodeNetwork(network)).not.toMatch(/me:|secret/)
  })

  it('takes the extra certificates from the flag, else the profile', () => {
    const fromProfile = profile({ extraCertificatesFile: '/etc/corp.pem' })
    expect(resolveNodeNetwork({ env: {}, profile: fromProfile })).toMatchObject({
      caFile: '/etc/corp.pem',
      caFileSource: 'profile',
    })
    expect(resolveNodeNetwork({ env: {}, profile: fromProfile, flags: { caFile: 'ca.pem' } })).toMatchObject({
      caFile: 'ca.pem',
      caFileSource: 'command-line',
    })
  })
})

describe('routeFor: the proxy a URL goes through, or direct and why', () => {
  it('names the proxy without credentials and the variable or flag that set it', () => {
    const fromEnv = routeFor(
      resolveNodeNetwork({ env: { https_proxy: 'http://me:secret@proxy.corp:3128' } }),
      SERVICE,
    )
    expect(fromEnv).toMatchObject({
      kind: 'proxy',
      proxy: { address: 'http://proxy.corp:3128', origin: 'https_proxy', hasCredentials: true },
    })
    const viaHttp = routeFor(resolveNodeNetwork({ env: { HTTP_PROXY: 'http://plain:2' } }), SERVICE)
    expect(viaHttp).toMatchObject({ kind: 'proxy', proxy: { origin: 'HTTP_PROXY' } })
    const flagged = routeFor(resolveNodeNetwork({ env: {}, flags: { proxy: 'proxy:8080' } }), SERVICE)
    expect(flagged).toMatchObject({
      kind: 'proxy',
      proxy: { address: 'http://proxy:8080', origin: '--proxy' },
    })
  })

  it('says why a request goes direct', () => {
    const why = (network: Parameters<typeof routeFor>[0], url = SERVICE): string => {
      const route = routeFor(network, url)
      return route.kind === 'direct' ? route.why : `proxy ${route.proxy.label}`
    }
    const env = { HTTPS_PROXY: 'http://env-proxy:3128', NO_PROXY: 'payroll.example' }
    expect(why(resolveNodeNetwork({ env }))).toBe('NO_PROXY lists payroll.example')
    expect(why(resolveNodeNetwork({ env, flags: { proxy: 'http://flag:1' } }))).toBe(
      'NO_PROXY lists payroll.example',
    )
    expect(why(resolveNodeNetwork({ env, flags: { proxy: 'none' } }))).toBe('--proxy none')
    expect(why(resolveNodeNetwork({ env: {} }))).toBe(
      'no proxy is set: no --proxy, HTTPS_PROXY or HTTP_PROXY',
    )
    expect(why(resolveNodeNetwork({ env: {}, profile: profile({ proxyMode: 'none' }) }))).toBe(
      "the profile's setting (Settings → Network) says No proxy",
    )
    const bypassed = profile({ proxyMode: 'fixed', proxyUrl: 'http://p:1', proxyBypass: '*.example' })
    expect(why(resolveNodeNetwork({ env: {}, profile: bypassed }))).toBe(
      "the profile's bypass list (Settings → Network) lists payroll.example",
    )
    expect(why(resolveNodeNetwork({ env: { HTTPS_PROXY: 'http://p:1' } }), 'http://plain.example/')).toMatch(
      /^HTTP_PROXY is not set/,
    )
  })
})

describe('bypassesProxy (NO_PROXY)', () => {
  const cases: ReadonlyArray<readonly [string, string, boolean]> = [
    ['example.com', 'https://example.com/', true],
    ['example.com', 'https://api.example.com/', true],
    ['.example.com', 'https://example.com/', true],
    ['*.example.com', 'https://example.com/', false],
    ['*.example.com', 'https://api.example.com/', true],
    ['example.com', 'https://notexample.com/', false],
    ['*', 'https://anything/', true],
    ['127.0.0.1:8443', 'https://127.0.0.1:8443/', true],
    ['127.0.0.1:8443', 'https://127.0.0.1:9443/', false],
    ['10.0.0.0/8', 'http://10.1.2.3/', true],
    ['10.0.0.0/8', 'http://11.1.2.3/', false],
    ['<local>', 'http://intranet/', true],
    ['<local>', 'http://intranet.corp/', false],
    ['a.example, b.example localhost', 'http://localhost:3000/', true],
    ['', 'https://example.com/', false],
  ]
  it.each(cases)('%s for %s → %s', (list, url, expected) => {
    expect(bypassesProxy(list, new URL(url))).toBe(expected)
  })
})

describe('readCertificateFile', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })

  it('says precisely why a file cannot be used', () => {
    const folder = mkdtempSync(join(tmpdir(), 'rd-ca-'))
    dir = folder
    expect(() => readCertificateFile(join(folder, 'missing.pem'), '--ca-file')).toThrow(
      /^--ca-file: .*missing\.pem cannot be used: there is no such file\.$/,
    )
    expect(() => readCertificateFile(folder, '--ca-file')).toThrow(/it is a folder, not a file/)
    const notPem = join(folder, 'key.txt')
    writeFileSync(notPem, 'hello')
    expect(() => readCertificateFile(notPem, '--ca-file')).toThrow(/holds no certificate in PEM form/)
    const damaged = join(folder, 'damaged.pem')
    writeFileSync(damaged, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')
    expect(() => readCertificateFile(damaged, '--ca-file')).toThrow(/certificate 1 of 1 in .* is damaged/)
  })
})
