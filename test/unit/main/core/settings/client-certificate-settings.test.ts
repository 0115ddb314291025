import { describe, expect, it } from 'vitest'
import { POLICY_REGISTRY_VALUES, policySchema } from '../../../../../src/main/core/policy/policy-schema'
import { clientCertificateOf } from '../../../../../src/main/core/settings/network-settings'
import { defaultSettings } from '../../../../../src/main/core/settings/settings-defaults'
import { checkSettings } from '../../../../../src/shared/settings-schema'

/** The client certificate a profile or the machine policy names (issue 31, point 9): one rule, both or neither. */

describe('a client certificate in the settings and the policy', () => {
  const base = defaultSettings()

  it('is named by subject and issuer together, trimmed; one alone is refused under the empty one', () => {
    const both = checkSettings({
      ...base,
      clientCertificateSubject: ' Clerk One ',
      clientCertificateIssuer: 'Acme CA',
    })
    expect(
      both.ok && [both.settings.clientCertificateSubject, both.settings.clientCertificateIssuer],
    ).toEqual(['Clerk One', 'Acme CA'])
    const alone = checkSettings({ ...base, clientCertificateSubject: 'Clerk One' })
    expect(alone.ok ? undefined : Object.keys(alone.fieldErrors)).toEqual(['clientCertificateIssuer'])
    const control = checkSettings({
      ...base,
      clientCertificateIssuer: 'Acme\u0007CA',
      clientCertificateSubject: 'x',
    })
    expect(control.ok).toBe(false)
  })

  it('goes to the service of the profile’s environment, as Chromium names the server (host:port)', () => {
    const named = { ...base, clientCertificateSubject: 'Clerk One', clientCertificateIssuer: 'Acme CA' }
    expect(clientCertificateOf(named)).toBeUndefined() // Demo
    expect(
      clientCertificateOf({
        ...named,
        environment: 'production',
        baseUrls: { staging: 'https://staging.example.com', production: 'https://Payroll.Example.com/api' },
      }),
    ).toEqual({ subject: 'Clerk One', issuer: 'Acme CA', host: 'payroll.example.com:443' })
    expect(
      clientCertificateOf({
        ...named,
        environment: 'staging',
        baseUrls: { staging: 'https://[::1]:8443', production: '' },
      })?.host,
    ).toBe('[::1]:8443')
    expect(clientCertificateOf({ ...base, environment: 'staging' })).toBeUndefined()
  })

  it('is a policy key pair, from the file or the registry (REG_SZ), and one without the other is refused', () => {
    const network = { clientCertificateSubject: 'Clerk One', clientCertificateIssuer: 'Acme CA' }
    expect(policySchema.safeParse({ network }).success).toBe(true)
    const alone = policySchema.safeParse({ network: { clientCertificateSubject: 'Clerk One' } })
    expect(alone.success ? [] : alone.error.issues.map((issue) => issue.message)).toEqual([
      '"clientCertificateSubject" and "clientCertificateIssuer" go together.',
    ])
    // The registry's values (the ADMX template names the same: admx-template.test.ts).
    expect(
      POLICY_REGISTRY_VALUES.filter((row) => row.value.startsWith('ClientCertificate')).map((row) => [
        row.value,
        row.type,
        row.path.join('.'),
      ]),
    ).toEqual([
      ['ClientCertificateSubject', 'REG_SZ', 'network.clientCertificateSubject'],
      ['ClientCertificateIssuer', 'REG_SZ', 'network.clientCertificateIssuer'],
    ])
  })
})
