import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ProxySignInRequest } from '../../../../../src/shared/connection-report'
import { createLogger } from '../../../../../src/main/core/log/logger'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import {
  ProxySignIn,
  RememberedProxyCredentials,
  type LoginAuthInfo,
} from '../../../../../src/main/shell/network/proxy-sign-in'
import { until } from '../../../../helpers/until'

/** Main's answer to the core process's 'login' events, called with Electron's arguments (login_handler.cc). */

const PROXY: LoginAuthInfo = {
  isProxy: true,
  scheme: 'Basic',
  host: 'proxy.corp.example',
  port: 8080,
  realm: 'Corp',
}

function setup(options: { window?: boolean; waitMs?: number } = {}) {
  const vault = new MemorySecretStore()
  const remembered = new RememberedProxyCredentials(vault)
  const asked: ProxySignInRequest[] = []
  const log: string[] = []
  const signIn = new ProxySignIn({
    remembered,
    logger: createLogger((level, text) => log.push(`${level}: ${text}`)),
    ask: (request) => {
      if (options.window === false) return false
      asked.push(request)
      return true
    },
    ...(options.waitMs === undefined ? {} : { waitMs: options.waitMs }),
  })
  const login = (authInfo: LoginAuthInfo, firstAuthAttempt = true) => {
    const event = { prevented: false, preventDefault: () => void (event.prevented = true) }
    const calls: unknown[][] = []
    signIn.onLogin(event, { firstAuthAttempt }, authInfo, (...args: unknown[]) => void calls.push(args))
    return { event, calls }
  }
  return { vault, remembered, asked, log, signIn, login }
}

afterEach(() => vi.useRealTimers())

describe('ProxySignIn', () => {
  it('cancels a server’s own challenge at once, logging nothing of it', () => {
    const { login, asked, log } = setup()
    const { event, calls } = login({
      isProxy: false,
      scheme: 'basic',
      host: 'payroll.example.com',
      port: 443,
      realm: 'secret-realm',
    })
    // callback() with no arguments is Electron's cancel; the event is not prevented.
    expect(calls).toEqual([[]])
    expect(event.prevented).toBe(false)
    expect(asked).toEqual([])
    expect(log.join('\n')).not.toMatch(/payroll\.example\.com|secret-realm/)
  })

  it('asks the window for a proxy, answers with what the clerk typed, and remembers it when asked to', async () => {
    const { login, asked, signIn, remembered, log } = setup()
    const first = login(PROXY)
    expect(first.event.prevented).toBe(true)
    await until(() => asked.length === 1)
    expect(asked[0]).toMatchObject({
      proxy: 'proxy.corp.example:8080',
      realm: 'Corp',
      scheme: 'basic',
      retry: false,
    })
    // A second request meeting the same proxy meanwhile waits for the same answer.
    const second = login(PROXY)
    expect(signIn.answer(asked[0]?.id ?? '', { username: 'clerk', password: 'pa55', remember: true })).toBe(
      true,
    )
    await until(() => first.calls.length === 1 && second.calls.length === 1)
    expect(first.calls).toEqual([['clerk', 'pa55']])
    expect(second.calls).toEqual([['clerk', 'pa55']])
    expect(asked).toHaveLength(1)
    expect(await remembered.list()).toEqual(['proxy.corp.example:8080'])
    // The answered question is gone.
    expect(signIn.answer(asked[0]?.id ?? '', null)).toBe(false)
    expect(log.join('\n')).not.toContain('pa55')

    // Next time the remembered sign-in answers the first challenge without asking.
    const third = login(PROXY)
    await until(() => third.calls.length === 1)
    expect(third.calls).toEqual([['clerk', 'pa55']])
    expect(asked).toHaveLength(1)

    // Refused (a second challenge for the same request): the window is asked again, saying so.
    const refused = login(PROXY, false)
    await until(() => asked.length === 2)
    expect(asked[1]?.retry).toBe(true)
    signIn.answer(asked[1]?.id ?? '', null)
    await until(() => refused.calls.length === 1)
    expect(refused.calls).toEqual([[]])
  })

  it('cancels when there is no window, and when the clerk does not answer in time', async () => {
    const closed = setup({ window: false })
    const alone = closed.login(PROXY)
    await until(() => alone.calls.length === 1)
    expect(alone.calls).toEqual([[]])

    vi.useFakeTimers()
    const slow = setup({ waitMs: 60_000 })
    const waiting = slow.login(PROXY)
    await vi.waitFor(() => expect(slow.asked).toHaveLength(1))
    expect(waiting.calls).toEqual([])
    await vi.advanceTimersByTimeAsync(60_000)
    expect(waiting.calls).toEqual([[]])
  })

  it('keeps remembered sign-ins per proxy in main’s secret, and forgets one', async () => {
    const { remembered, vault } = setup()
    await remembered.set('a.example:3128', { username: 'u1', password: 'p1' })
    await remembered.set('b.example:8080', { username: 'u2', password: 'p2' })
    expect(await remembered.list()).toEqual(['a.example:3128', 'b.example:8080'])
    await remembered.delete('a.example:3128')
    expect(await remembered.get('a.example:3128')).toBeUndefined()
    expect(await remembered.get('b.example:8080')).toEqual({ username: 'u2', password: 'p2' })
    await remembered.delete('b.example:8080')
    expect(await vault.get('proxyCredentials')).toBeUndefined()
  })
})
