import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useMainProcesses } from './main-process'

/**
 * Issue 31, point 9: a TLS server's request for a client certificate reaches main as app's
 * 'select-client-certificate' (for the core process's requests, forked with respondToAuthRequestsFromMainProcess,
 * and main's own `net`, the updater's), where Electron would otherwise send the OS store's first certificate
 * (electron 45: shell/browser/api/electron_api_app.cc, App::SelectClientCertificate; the stand-in models it,
 * stand-in-fidelity.test.ts). Main sends none unless the profile or the machine policy names one, and then only
 * that one (by subject and issuer), only to the profile's service.
 */

type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } }

const shell = useMainProcesses()
const freshDir = (prefix: string): string => shell.freshDir(`cert-${prefix}`)

/** A certificate as Electron hands it over (docs/api/structures/certificate.md), valid around now. */
function certificate(subjectName: string, issuerName: string, expiresInDays = 300) {
  const now = Date.now() / 1000
  return {
    data: `-----BEGIN CERTIFICATE-----\n${subjectName}/${issuerName}/${expiresInDays}\n-----END CERTIFICATE-----\n`,
    subjectName,
    issuerName,
    validStart: now - 86_400,
    validExpiry: now + expiresInDays * 86_400,
    fingerprint: `sha256/${subjectName}${issuerName}${expiresInDays}`,
    serialNumber: '01',
  }
}

const SOMEONE = certificate('Someone Else', 'Other CA')
const CLERK = certificate('Clerk One', 'Acme Issuing CA')
const CLERK_RENEWED = certificate('Clerk One', 'Acme Issuing CA', 700)
const SERVICE = 'payroll.example.com:443'

describe('client certificates', () => {
  it('sends none when the profile names none, where Electron would send the first', async () => {
    const main = shell.start({ userData: freshDir('none') })
    await main.windowReady()
    expect(await main.selectClientCertificate(SERVICE, [SOMEONE, CLERK])).toBeNull()
  })

  it('sends the one the profile names, by subject and issuer, to the profile’s service only', async () => {
    const main = shell.start({ userData: freshDir('profile') })
    await main.windowReady()
    await main.answerMessageBoxes(0) // the clerk confirms the new service address (issue 31, point 2)
    const updated = (await main.invoke('settings:update', {
      environment: 'staging',
      baseUrls: { staging: 'https://payroll.example.com', production: '' },
      clientCertificateSubject: 'clerk one',
      clientCertificateIssuer: 'Acme Issuing CA',
    })) as Result<unknown>
    expect(updated.ok).toBe(true)
    // Applied once the core has handed the settings to main (which of several matching: client-certificate.test.ts).
    await expect
      .poll(() => main.selectClientCertificate(SERVICE, [SOMEONE, CLERK, CLERK_RENEWED]))
      .toBe('Clerk One')
    expect((await main.snapshot()).clientCertificates.at(-1)).toEqual({ url: SERVICE, chosen: 'Clerk One' })
    // Another host (an update feed, a redirect elsewhere), or no certificate of that name: none.
    expect(await main.selectClientCertificate('updates.example.com:443', [CLERK])).toBeNull()
    expect(await main.selectClientCertificate(SERVICE, [SOMEONE])).toBeNull()
    expect(await main.selectClientCertificate(SERVICE, [certificate('Clerk One', 'Other CA')])).toBeNull()
  })

  it('takes the machine policy’s certificate, which the clerk cannot change', async () => {
    const dir = freshDir('policy')
    const policyFile = join(dir, 'policy.json')
    writeFileSync(
      policyFile,
      JSON.stringify({
        profiles: [{ name: 'Acme', environment: 'production', baseUrl: 'https://payroll.example.com' }],
        network: { clientCertificateSubject: 'Clerk One', clientCertificateIssuer: 'Acme Issuing CA' },
      }),
      { mode: 0o644 },
    )
    const main = shell.start({
      userData: dir,
      packaged: false,
      env: { ROSTERDESK_POLICY_FILE: policyFile },
    })
    await main.windowReady()
    const refused = (await main.invoke('settings:update', {
      clientCertificateSubject: '',
    })) as Result<unknown>
    expect(refused).toMatchObject({ ok: false, error: { code: 'validation' } })
    expect(JSON.stringify(refused)).toContain('Set by your organisation')
    const profiles = (await main.invoke('profiles:list')) as Result<{
      profiles: Array<{ id: string; name: string }>
    }>
    const acme = profiles.ok ? profiles.value.profiles.find((profile) => profile.name === 'Acme') : undefined
    expect(acme).toBeDefined()
    expect(((await main.invoke('profiles:switch', acme?.id)) as Result<unknown>).ok).toBe(true)
    await expect.poll(() => main.selectClientCertificate(SERVICE, [SOMEONE, CLERK])).toBe('Clerk One')
  })
})
