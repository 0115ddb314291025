import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { RosterDeskApi } from '../shared/ipc-contract'
import { isEventChannel, isInvokeChannel } from '../shared/ipc-channels'
import { TEST_HOOKS_SWITCH, type RosterDeskTestHooks } from '../shared/test-hooks'

/**
 * The whole surface the renderer gets: `invoke` on the contract's channels and `on` for its events. Unlike a
 * generic forwarder, unknown channels never reach ipcRenderer, and the Electron event object (which exposes
 * `sender`) never reaches the page. Main validates every argument again; this allowlist is only the first gate.
 */
const api: RosterDeskApi = {
  invoke(channel, ...args) {
    if (!isInvokeChannel(channel)) {
      return Promise.resolve({ ok: false, error: { code: 'validation', message: 'Unknown request.' } })
    }
    return ipcRenderer.invoke(channel, ...args)
  },
  on(channel, listener) {
    if (!isEventChannel(channel)) throw new Error(`Unknown event channel`)
    const forward = (_event: IpcRendererEvent, payload: unknown): void => {
      ;(listener as (value: unknown) => void)(payload)
    }
    ipcRenderer.on(channel, forward)
    return () => {
      ipcRenderer.removeListener(channel, forward)
    }
  },
}

contextBridge.exposeInMainWorld('rosterdesk', Object.freeze(api))

// A test build's levers (shell/window-and-startup/test-hooks.ts: main adds the switch to this renderer's argv only
// there): Electron's sandboxed preload has `process.argv` and `process.crash()` (docs/api/process.md, "Sandbox").
if (process.argv.includes(TEST_HOOKS_SWITCH)) {
  const hooks: RosterDeskTestHooks = { crashRenderer: () => process.crash() }
  contextBridge.exposeInMainWorld('rosterdeskTestHooks', Object.freeze(hooks))
}
