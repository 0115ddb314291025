import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { runLoginCommand } from '../../../../src/main/cli/login-command'
import { CaptureLogger } from '../../../helpers/capture-logger'
import { resolveNodeNetwork } from '../../../../src/main/core/net/network-options'
import type { PolicyInForce } from '../../../../src/main/core/policy/policy-in-force'
import { policySchema } from '../../../../src/main/core/policy/policy-schema'
import { appFolders, readCliProfile } from '../../../../src/main/cli/profile-flag'
import { UsageError } from '../../../../src/main/cli/cache-command-args'
import {
  cliPolicyRules,
  policyNetworkLayer,
  policyProfileFor,
  policySecretFor,
  refuseLockedFlags,
} from '../../../../src/main/cli/policy-flags'
import { makeTempDir } from '../../../helpers/cache-test-helpers'

const SOURCE = 'C:\\ProgramData\\RosterDesk\\policy.json'

function rulesOf(raw: unknown) {
  const inForce: PolicyInForce = { policy: policySchema.parse(raw), source: SOURCE, problem: undefined }
  return { inForce, rules: cliPolicyRules(inForce) }
}

const payroll = {
  name: 'Payroll',
  environment: 'production',
  baseUrl: 'https://payroll.acme.example',
  clientId: 'rosterdesk-desktop',
  clientSecret: 'the-secret',
  scopes: 'read write',
  locked: ['baseUrl', 'clientId', 'scopes'],
}

describe('the CLI under the machine policy', () => {
  it('finds the policy profile by --profile, else by the address it sets', () => {
    const { rules } = rulesOf({ profiles: [payroll] })
    expect(policyProfileFor(rules, 'payroll', undefined, undefined)?.name).toBe('Payroll')
    expect(policyProfileFor(rules, undefined, 'https://payroll.acme.example/', undefined)?.name).toBe(
      'Payroll',
    )
    expect(policyProfileFor(rules, undefined, 'https://other.example', undefined)).toBeUndefined()
    expect(policyProfileFor(rules, 'Mine', 'https://payroll.acme.example', undefined)).toBeUndefined()
  })

  it('tells two policy profiles on one service apart by --tenant, and refuses naming them when it cannot', () => {
    const { rules } = rulesOf({
      profiles: [
        { ...payroll, name: 'Acme', tenantId: 'acme' },
        { ...payroll, name: 'Beta', tenantId: 'beta', clientSecret: 'beta-secret' },
      ],
    })
    const url = 'https://payroll.acme.example'
    expect(policyProfileFor(rules, undefined, url, 'beta')?.name).toBe('Beta')
    expect(policyProfileFor(rules, undefined, url, 'acme')?.name).toBe('Acme')
    const refusal = new UsageError(
      `--base-url: the machine policy (${SOURCE}) has several profiles for ${url}: "Acme" (tenant acme), "Beta" (tenant beta). Say which with --profile NAME or --tenant.`,
    )
    expect(() => policyProfileFor(rules, undefined, url, undefined)).toThrow(refusal)
    expect(() => policyProfileFor(rules, undefined, url, 'gamma')).toThrow(refusal)
    // A tenant in another case is another tenant.
    expect(() => policyProfileFor(rules, undefined, url, 'BETA')).toThrow(refusal)
  })

  it('compares a client ID, tenant and redirect URI exactly: another case is another value', () => {
    const { rules } = rulesOf({
      profiles: [
        {
          ...payroll,
          tenantId: 'acme',
          redirectUri: 'http://127.0.0.1:8765/callback',
          locked: ['baseUrl', 'clientId', 'tenantId', 'redirectUri'],
        },
      ],
    })
    const profile = rules.profileFor('Payroll')
    expect(() =>
      refuseLockedFlags(rules, profile, {
        clientId: ' rosterdesk-desktop ',
        tenantId: 'acme',
        redirectUri: 'http://127.0.0.1:8765/callback',
      }),
    ).not.toThrow()
    for (const flags of [
      { clientId: 'RosterDesk-Desktop' },
      { tenantId: 'ACME' },
      { redirectUri: 'http://127.0.0.1:8765/Callback' },
    ])
      expect(() => refuseLockedFlags(rules, profile, flags), JSON.stringify(flags)).toThrow(UsageError)
  })

  it('gives the policy’s client secret only to a command talking to the policy profile’s address', () => {
    const { rules } = rulesOf({ profiles: [payroll, { name: 'Open', clientSecret: 'no-address' }] })
    const profile = rules.profileFor('Payroll')
    expect(policySecretFor(profile, 'https://payroll.acme.example/')).toBe('the-secret')
    expect(policySecretFor(profile, 'https://evil.example')).toBeUndefined()
    // A policy profile without an address names no service: its secret goes nowhere.
    expect(policySecretFor(rules.profileFor('Open'), 'https://payroll.acme.example')).toBeUndefined()
  })

  it('refuses only flags that contradict a locked value, as the app compares them, naming the source', () => {
    const { rules } = rulesOf({ profiles: [payroll] })
    const profile = rules.profileFor('Payroll')
    // The same values as written differently are no contradiction; an unlocked field may differ.
    expect(() =>
      refuseLockedFlags(rules, profile, {
        baseUrl: 'https://payroll.acme.example/',
        scopes: 'read, write',
        tenantId: 'anything',
      }),
    ).not.toThrow()
    expect(() =>
      refuseLockedFlags(rules, profile, { baseUrl: 'https://x.example', clientId: 'mine' }),
    ).toThrow(
      new UsageError(
        `--base-url (it is https://payroll.acme.example), --client-id (it is rosterdesk-desktop): your organisation sets these for "Payroll" in the machine policy (${SOURCE}), and a command may not change them. Leave the flag out, or ask IT.`,
      ),
    )
  })

  it('refuses a login --scope against the locked scopes (exit 2), before any sign-in', async () => {
    const { inForce } = rulesOf({ profiles: [payroll] })
    const stderr = new PassThrough()
    let said = ''
    stderr.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')))
    const code = await runLoginCommand(
      [
        '--base-url',
        'https://payroll.acme.example',
        '--client-id',
        'rosterdesk-desktop',
        '--redirect-uri',
        'http://127.0.0.1/callback',
        '--token-file',
        '/nonexistent/tokens.json',
        '--scope',
        'read',
      ],
      {
        stdout: new PassThrough(),
        stderr,
        env: {},
        platform: 'linux',
        logger: new CaptureLogger(),
        policy: inForce,
      },
    )
    expect(code).toBe(2)
    expect(said).toContain(`--scope (it is read write): your organisation sets this for "Payroll"`)
  })

  it('puts the policy’s network over the environment, and refuses --proxy and --ca-file against it', () => {
    const { rules } = rulesOf({ network: { proxyMode: 'none', extraCertificatesFile: '/etc/ssl/acme.pem' } })
    expect(() => policyNetworkLayer(rules, { proxy: 'http://p:1', caFile: undefined })).toThrow(
      /^--proxy: your organisation/,
    )
    expect(() => policyNetworkLayer(rules, { proxy: undefined, caFile: '/tmp/x.pem' })).toThrow(
      /^--ca-file: /,
    )
    const { layer } = policyNetworkLayer(rules, { proxy: undefined, caFile: undefined })
    const network = resolveNodeNetwork({
      env: { HTTPS_PROXY: 'http://env-proxy:8080' },
      ...(layer ? { policy: layer } : {}),
    })
    expect(network).toMatchObject({
      proxySource: 'policy',
      httpsProxy: undefined,
      caFile: '/etc/ssl/acme.pem',
      caFileSource: 'policy',
    })

    const fixed = rulesOf({
      network: {
        proxyMode: 'fixed',
        proxyUrl: 'http://proxy.acme.example:8080',
        proxyBypass: '*.acme.example',
      },
    })
    const fixedLayer = policyNetworkLayer(fixed.rules, { proxy: undefined, caFile: undefined }).layer
    expect(resolveNodeNetwork({ env: {}, ...(fixedLayer ? { policy: fixedLayer } : {}) })).toMatchObject({
      proxySource: 'policy',
      httpsProxy: { label: 'proxy.acme.example:8080' },
      noProxy: '*.acme.example',
    })
  })

  it('reads --profile with the policy’s profile and locks, even before the app first ran', () => {
    const { dir, cleanup } = makeTempDir('rosterdesk-cli-policy-')
    try {
      const { inForce } = rulesOf({ profiles: [payroll] })
      const profile = readCliProfile('payroll', appFolders(dir, {}, 'linux'), inForce)
      expect(profile).toMatchObject({
        name: 'Payroll',
        baseUrl: 'https://payroll.acme.example',
        settings: { environment: 'production', clientId: 'rosterdesk-desktop', scopes: 'read write' },
      })
      expect(JSON.stringify(profile)).not.toContain('the-secret')
      expect(() => readCliProfile('Other', appFolders(dir, {}, 'linux'), inForce)).toThrow(
        /no RosterDesk settings found/,
      )
    } finally {
      cleanup()
    }
  })
})
