import { describe, expect, it } from 'vitest'
import type { ProxySignInRequest } from '../../../../../src/shared/connection-report'
import { createLogger } from '../../../../../src/main/core/log/logger'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import {
  ProxySignIn,
  RememberedProxyCredentials,
  type LoginAuthInfo,
} from '../../../../../src/main/shell/network/proxy-sign-in'
import { until } from '../../../../helpers/until'

/**
 * Issue 31, point 7: a remembered Basic sign-in is sent to a plain-HTTP proxy that the network's automatic
 * configuration (WPAD/PAC) chose only once the clerk confirmed it in main's own dialog, remembered per proxy.
 */

const DISCOVERED: LoginAuthInfo = {
  isProxy: true,
  scheme: 'basic',
  host: 'wpad-proxy.example',
  port: 3128,
  realm: 'R',
}
const URL_ASKED = 'https://payroll.example.com/openapi/v1/employees'

function setup(answers: boolean[], plain = true) {
  const vault = new MemorySecretStore()
  const remembered = new RememberedProxyCredentials(vault)
  const asked: ProxySignInRequest[] = []
  const confirmations: string[] = []
  const routes: Array<[string, string | undefined]> = []
  const log: string[] = []
  const signIn = new ProxySignIn({
    remembered,
    logger: createLogger((level, text) => log.push(`${level}: ${text}`)),
    ask: (request) => {
      asked.push(request)
      return true
    },
    discoveredPlainProxy: async (proxy, url) => {
      routes.push([proxy, url])
      return plain
    },
    confirmPlainProxy: async (proxy) => {
      confirmations.push(proxy)
      return answers.shift() ?? false
    },
  })
  const login = (authInfo: LoginAuthInfo = DISCOVERED) => {
    const calls: unknown[][] = []
    signIn.onLogin(
      { preventDefault: () => undefined },
      { firstAuthAttempt: true, url: URL_ASKED },
      authInfo,
      (...args: unknown[]) => void calls.push(args),
    )
    return calls
  }
  return { vault, remembered, asked, confirmations, routes, log, signIn, login }
}

describe('a remembered sign-in and a proxy found by WPAD/PAC over plain HTTP', () => {
  it('is sent only after the clerk confirms, once per proxy, remembered across runs', async () => {
    const { remembered, vault, confirmations, routes, login, log } = setup([true])
    await remembered.set('wpad-proxy.example:3128', { username: 'clerk', password: 'pa55' })
    const first = login()
    await until(() => first.length === 1)
    expect(first).toEqual([['clerk', 'pa55']])
    expect(confirmations).toEqual(['wpad-proxy.example:3128'])
    expect(routes).toEqual([['wpad-proxy.example:3128', URL_ASKED]])
    expect(log.join('\n')).not.toContain('pa55')

    // A later run (a fresh ProxySignIn over the same vault) does not ask again.
    const next = setup([], true)
    await next.vault.set('proxyCredentials', (await vault.get('proxyCredentials')) ?? '')
    const again = next.login()
    await until(() => again.length === 1)
    expect(again).toEqual([['clerk', 'pa55']])
    expect(next.confirmations).toEqual([])
  })

  it('is not sent when the clerk declines: the window asks instead, and the dialog is not shown again this run', async () => {
    const { remembered, confirmations, asked, login, signIn } = setup([false])
    await remembered.set('wpad-proxy.example:3128', { username: 'clerk', password: 'pa55' })
    const declined = login()
    await until(() => asked.length === 1)
    expect(confirmations).toHaveLength(1)
    signIn.answer(asked[0]?.id ?? '', null)
    await until(() => declined.length === 1)
    expect(declined).toEqual([[]])
    const later = login()
    await until(() => asked.length === 2)
    expect(confirmations).toHaveLength(1)
    signIn.answer(asked[1]?.id ?? '', null)
    await until(() => later.length === 1)
  })

  it('asks nothing for a proxy RosterDesk was told (or one reached over TLS), nor for another scheme', async () => {
    const told = setup([], false)
    await told.remembered.set('wpad-proxy.example:3128', { username: 'clerk', password: 'pa55' })
    const calls = told.login()
    await until(() => calls.length === 1)
    expect(calls).toEqual([['clerk', 'pa55']])
    expect(told.confirmations).toEqual([])

    const ntlm = setup([])
    await ntlm.remembered.set('wpad-proxy.example:3128', { username: 'clerk', password: 'pa55' })
    const digest = ntlm.login({ ...DISCOVERED, scheme: 'digest' })
    await until(() => digest.length === 1)
    expect(ntlm.confirmations).toEqual([])
  })
})
