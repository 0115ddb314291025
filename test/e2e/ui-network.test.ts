import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { connectionReportText, type ProxySignInAnswer } from '../../src/shared/connection-report'
import { auditBothThemes } from '../helpers/axe-audit'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { INSPECTED_TLS_REPORT } from '../helpers/fake/fake-network'
import type { FakeCore } from '../helpers/fake/fake-core'
import type { AppPage } from '../helpers/harness'
import { useFakeUiSession } from '../helpers/harness/fake-app'

/**
 * Settings → Network, Test connection and the proxy sign-in dialog in a real browser: the built renderer in
 * headless Chromium under the production CSP, over the fake core (the harness's bridge), whose network channels
 * play what only main's shell can do here (the native open dialog, a proxy's challenge). Each screen is audited
 * by axe-core in the light theme (every rule) and the dark one (colour contrast); with ROSTERDESK_SCREENSHOTS=1
 * both are saved as test/e2e/screenshots/ui-network-*.png.
 */

const session = useFakeUiSession({
  serviceEmployees: makeEmployees(40),
  synced: true,
  signedIn: true,
  network: {
    manualCheck: true,
    chosenCertificates: '/home/clerk/certificates/Zscaler Root CA.pem',
    rememberedProxies: ['proxy-b.corp.example:3128'],
  },
})
let core: FakeCore
let ui: AppPage
let page: Page
beforeAll(async () => {
  ;({ core, ui, page } = session())
  await session().browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(session().harness.url).origin,
  })
  await page.getByText('40 of 40 employees').waitFor()
})

/** Audits what is on screen in both themes, screenshotting each when wanted; fails listing every violation. */
async function expectAccessible(name: string): Promise<void> {
  const failures = await auditBothThemes(page, name, (theme) => ui.screenshot(`ui-network-${name}-${theme}`))
  expect.soft(failures, failures.join('\n\n')).toEqual([])
  expect.soft(ui.problems).toEqual([])
}

/** What has the focus, as "TAG#id:text" (evaluated in the page: the tests' TypeScript has no DOM types). */
async function focused(): Promise<string> {
  return String(
    await page.evaluate(
      `(() => { const e = document.activeElement; return e ? e.tagName + '#' + e.id + ':' + (e.textContent ?? '').trim() : '' })()`,
    ),
  )
}

const network = (): Locator => page.getByRole('group', { name: 'Network' })
const testButton = (): Locator => page.getByRole('button', { name: 'Test connection' })
const report = (): Locator => page.getByRole('region', { name: 'Connection report' })

describe('Settings → Network, Test connection and the proxy sign-in, in a real browser', () => {
  it('1. chooses a proxy, a certificate file and forgets a remembered sign-in, saved like every setting', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()
    await network().getByRole('radio', { name: 'This proxy' }).check()
    await network().getByLabel('Proxy address').fill('proxy.corp.example:8080')
    await network().getByLabel('Bypass the proxy for').fill('*.corp.example 10.0.0.0/8')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Settings saved.').waitFor()
    const saved = (await core.handlers['settings:get']()).settings
    expect([saved.proxyMode, saved.proxyUrl, saved.proxyBypass]).toEqual([
      'fixed',
      'http://proxy.corp.example:8080',
      '*.corp.example, 10.0.0.0/8',
    ])

    await network().getByRole('button', { name: 'Choose file…' }).click()
    // The window shows the file's name, never its path (issue 31, point 2).
    await network().getByText('Zscaler Root CA.pem', { exact: true }).waitFor()
    // Audited (and screenshotted) from the section's top, with a remembered sign-in listed.
    await network().evaluate((element) => element.scrollIntoView())
    await expectAccessible('1-settings')

    await network().getByRole('button', { name: 'Forget proxy-b.corp.example:3128' }).click()
    await network().getByText('No proxy sign-in is remembered on this computer.').waitFor()
    expect(core.network.rememberedProxies()).toEqual([])
  })

  it('2. Test connection: "Testing…" while it runs, then every step, and Copy report puts the report on the clipboard', async () => {
    core.network.setReport(INSPECTED_TLS_REPORT)
    await testButton().click()
    expect(await testButton().isDisabled()).toBe(true)
    const result = network().locator('.check-result')
    expect(await result.getAttribute('role')).toBe('status')
    await expect.poll(() => result.textContent()).toBe('Testing…')
    await ui.screenshot('ui-network-2a-testing')
    await expect.poll(() => core.calls.filter((call) => call.channel === 'network:check').length).toBe(1)
    core.network.releaseCheck()

    await report().waitFor()
    expect(await result.textContent()).toBe(
      'Result: the connection failed at “Authorize page answers” (✗ below).',
    )
    // The button the check disabled has the focus again.
    await expect.poll(focused).toBe('BUTTON#:Test connection')
    const states = await report().locator('.check-step > .check-state').allTextContents()
    expect(states).toEqual(['✓ Passed', '✗ Failed', '– Skipped', '– Skipped'])
    const chain = report().getByRole('list', { name: 'Certificates seen: Authorize page answers' })
    expect(await chain.getByRole('listitem').count()).toBe(2)

    await report().getByRole('button', { name: 'Copy report' }).click()
    await report().getByText('Report copied. Paste it into an e-mail or ticket for IT.').waitFor()
    expect(String(await page.evaluate('navigator.clipboard.readText()'))).toBe(
      connectionReportText(INSPECTED_TLS_REPORT),
    )

    // From the button down: the result line, then the report.
    await testButton().evaluate((element) => element.scrollIntoView())
    await expectAccessible('2-report')
    await page.getByRole('button', { name: 'Done' }).click()
    await page.getByText('40 of 40 employees').waitFor()
  })

  it('3. a proxy asks to sign in: the dialog takes the focus, keeps it, and Enter answers with Remember', async () => {
    const search = page.getByRole('searchbox', { name: 'Search employees' })
    await search.focus()
    let answer: ProxySignInAnswer | undefined
    void core.network
      .askProxySignIn({
        proxy: 'proxy.corp.example:8080',
        realm: 'Corp Web Gateway',
        scheme: 'basic',
        retry: false,
      })
      .then((given) => (answer = given))
    const dialog = page.getByRole('dialog', { name: 'The proxy proxy.corp.example:8080 asks you to sign in' })
    await dialog.waitFor()
    await expect.poll(focused).toBe('INPUT#proxy-sign-in-username:')
    await expectAccessible('3-proxy-sign-in')

    // Tab and Shift+Tab stay within the dialog.
    for (let stop = 0; stop < 6; stop++) {
      await page.keyboard.press('Tab')
      expect(await dialog.evaluate((element) => element.contains(element.ownerDocument.activeElement))).toBe(
        true,
      )
    }
    await dialog.getByLabel('User name').fill('jclerk')
    await dialog.getByLabel('Password').fill('correct horse')
    await dialog.getByRole('checkbox', { name: 'Remember on this computer' }).check()
    await dialog.getByLabel('Password').press('Enter')
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => answer).toEqual({ username: 'jclerk', password: 'correct horse', remember: true })
    expect(core.network.rememberedProxies()).toEqual(['proxy.corp.example:8080'])
    // The focus is back where the clerk was.
    await expect
      .poll(() => search.evaluate((element) => element === element.ownerDocument.activeElement))
      .toBe(true)
  })

  it('4. asked again after a refusal, it says so; Esc cancels with no credentials', async () => {
    let answer: ProxySignInAnswer | undefined = undefined
    let answered = false
    void core.network
      .askProxySignIn({
        proxy: 'proxy.corp.example:8080',
        realm: 'Corp Web Gateway',
        scheme: 'NTLM',
        retry: true,
      })
      .then((given) => {
        answer = given
        answered = true
      })
    const dialog = page.getByRole('dialog', { name: 'The proxy proxy.corp.example:8080 asks you to sign in' })
    await dialog.getByText('The proxy refused the user name or password given.').waitFor()
    await expectAccessible('4-proxy-sign-in-retry')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => answered).toBe(true)
    expect(answer).toBeNull()
    expect(ui.problems).toEqual([])
  })
})
