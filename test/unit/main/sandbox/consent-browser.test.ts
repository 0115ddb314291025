import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../../../helpers/chromium'
import type { LaunchedChromium } from '../../../helpers/chromium'
import { useTestSandbox } from '../../../helpers/sandbox'
import { authorizeUrl } from '../../../helpers/sandbox-requests'

describe('the consent page in a real browser', () => {
  const sandbox = useTestSandbox()
  let browser: LaunchedChromium | undefined
  let callbackServer: Server
  let callbackBase = ''
  const callbacks: URL[] = []

  beforeAll(async () => {
    browser = await launchChromium()
    // Stands in for the app's loopback listener (RFC 8252): records where the browser was sent.
    callbackServer = createServer((req, res) => {
      callbacks.push(new URL(req.url ?? '/', callbackBase))
      res.end('You can close this window.')
    })
    await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve))
    callbackBase = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => callbackServer?.close(resolve))
  })

  const consent = async (button: 'Approve' | 'Deny', state: string): Promise<URL> => {
    if (browser === undefined) throw new Error('Chromium did not start')
    const page = await browser.context.newPage()
    try {
      await page.goto(authorizeUrl(sandbox(), { redirectUri: `${callbackBase}/callback`, state }))
      await page.getByRole('button', { name: button, exact: true }).click()
      await page.waitForURL(`${callbackBase}/callback?**`)
      const callback = callbacks.find((url) => url.searchParams.get('state') === state)
      if (callback === undefined) throw new Error('the loopback callback was not called')
      return callback
    } finally {
      await page.close()
    }
  }

  it('Approve sends the browser to the loopback redirect URI with a code and the state', async () => {
    const callback = await consent('Approve', 'browser-approve')
    expect(callback.pathname).toBe('/callback')
    expect(callback.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{40,}$/)
  })

  it('Deny sends the browser back with error=access_denied and the state', async () => {
    const callback = await consent('Deny', 'browser-deny')
    expect(callback.searchParams.get('error')).toBe('access_denied')
    expect(callback.searchParams.get('code')).toBeNull()
  })
})
