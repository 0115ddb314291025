import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import {
  findCallbackUrlInArgv,
  installDeepLinkHandling,
  schemeOf,
  type DeepLinkApp,
} from '../../../../../src/main/shell/adapters/deep-link'

const SCHEME = 'com.rosterdesk.app'
const CALLBACK = 'com.rosterdesk.app:/oauth/callback?code=c&state=s'

/** Electron's `app` as far as deep links go: an EventEmitter with the single-instance lock. */
class FakeApp extends EventEmitter implements DeepLinkApp {
  quitCalls = 0
  constructor(private readonly lock: boolean) {
    super()
  }
  requestSingleInstanceLock(): boolean {
    return this.lock
  }
  quit(): void {
    this.quitCalls++
  }
}

function openUrlEvent() {
  const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) }
  return event
}

describe('deep-link helpers', () => {
  it('finds the scheme of a custom redirect URI only', () => {
    expect(schemeOf('com.rosterdesk.app:/oauth/callback')).toBe(SCHEME)
    expect(schemeOf('http://127.0.0.1:8765/callback')).toBeUndefined()
  })

  it('finds the callback URL among Windows/Linux arguments', () => {
    const argv = ['C:\\Program Files\\RosterDesk\\RosterDesk.exe', '--allow-file-access-from-files', CALLBACK]
    expect(findCallbackUrlInArgv(argv, SCHEME)).toBe(CALLBACK)
    expect(findCallbackUrlInArgv(['RosterDesk.exe', 'COM.ROSTERDESK.APP:/oauth/callback?x=1'], SCHEME)).toBe(
      'COM.ROSTERDESK.APP:/oauth/callback?x=1',
    )
    expect(findCallbackUrlInArgv(['RosterDesk.exe', '--flag', 'com.other.app:/x'], SCHEME)).toBeUndefined()
  })
})

describe('installDeepLinkHandling', () => {
  it('quits when another RosterDesk holds the single-instance lock', () => {
    const app = new FakeApp(false)
    const handle = installDeepLinkHandling(app, { scheme: SCHEME, argv: ['x', CALLBACK] })
    expect(handle.primary).toBe(false)
    expect(app.quitCalls).toBe(1)
    expect(app.listenerCount('open-url')).toBe(0)
  })

  it('buffers URLs from a cold start, open-url and second instances until a handler is attached', () => {
    const app = new FakeApp(true)
    const handle = installDeepLinkHandling(app, { scheme: SCHEME, argv: ['RosterDesk', `${CALLBACK}&n=1`] })
    expect(handle.primary).toBe(true)
    const event = openUrlEvent()
    app.emit('open-url', event, `${CALLBACK}&n=2`)
    expect(event.defaultPrevented).toBe(true)
    app.emit('second-instance', {}, ['RosterDesk', '--flag', `${CALLBACK}&n=3`], '/home')
    app.emit('second-instance', {}, ['RosterDesk'], '/home')
    app.emit('open-url', openUrlEvent(), 'https://elsewhere.example/')
    const received: string[] = []
    handle.attach((url) => received.push(url))
    expect(received).toEqual([`${CALLBACK}&n=1`, `${CALLBACK}&n=2`, `${CALLBACK}&n=3`])
    app.emit('open-url', openUrlEvent(), `${CALLBACK}&n=4`)
    expect(received.at(-1)).toBe(`${CALLBACK}&n=4`)
    expect(app.quitCalls).toBe(0)
  })

  it('delivers at once when the handler is given up front', () => {
    const app = new FakeApp(true)
    const received: string[] = []
    installDeepLinkHandling(app, { scheme: SCHEME, argv: [], onUrl: (url) => received.push(url) })
    app.emit('second-instance', {}, ['RosterDesk', CALLBACK], '/')
    expect(received).toEqual([CALLBACK])
  })
})
