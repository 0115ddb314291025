import type { InvokeResult, IpcResult, RosterDeskApi } from '../../../src/shared/ipc-contract'

/** The browser globals the bridge uses, declared here because the test tsconfig has no DOM library. */
interface BridgeEventSource {
  onmessage: ((event: { data: string }) => void) | null
}
interface BridgeGlobals {
  EventSource: new (url: string) => BridgeEventSource
  fetch: (
    url: string,
    init: { method: string; headers: Record<string, string>; body: string },
  ) => Promise<{ json(): Promise<unknown> }>
}

/**
 * Runs inside the page before the app's own scripts (page.addInitScript) and defines `window.rosterdesk` the way
 * the production preload does, but carried over HTTP to the harness: invoke → POST /__ipc/invoke, events ← SSE
 * /__ipc/events. Both are same-origin, which the renderer's CSP (`connect-src 'self'`) allows. Typed as
 * RosterDeskApi so it cannot drift from the contract. It must not reference anything outside its own body: it is
 * serialised with Function#toString.
 */
export function installRosterDeskBridge(): void {
  const browser = globalThis as unknown as BridgeGlobals
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  // Connected at once so events emitted soon after the page loads (sync progress, auth changes) are not missed.
  const source = new browser.EventSource('/__ipc/events')
  source.onmessage = (event) => {
    const message = JSON.parse(event.data) as { channel: string; payload: unknown }
    for (const listener of [...(listeners.get(message.channel) ?? [])]) listener(message.payload)
  }

  const api: RosterDeskApi = {
    async invoke(channel, ...args) {
      const response = await browser.fetch('/__ipc/invoke', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ channel, args }),
      })
      return (await response.json()) as IpcResult<InvokeResult<typeof channel>>
    },
    on(channel, listener) {
      const set = listeners.get(channel) ?? new Set<(payload: unknown) => void>()
      const forward = (payload: unknown): void => (listener as (value: unknown) => void)(payload)
      set.add(forward)
      listeners.set(channel, set)
      return () => {
        set.delete(forward)
      }
    },
  }
  Object.defineProperty(globalThis, 'rosterdesk', { value: Object.freeze(api), enumerable: true })
}

/**
 * The init script for page.addInitScript. The local `__name` covers the helper some TypeScript transpilers
 * insert into serialised functions (keepNames); it shadows nothing in the page.
 */
export function bridgeInitScript(): string {
  return `(() => { const __name = (target) => target; (${installRosterDeskBridge.toString()})() })()`
}
