import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../../src/shared/ipc-channels'
import { ensureBuiltBundles, PRELOAD_BUNDLE } from '../helpers/built-bundles'

/**
 * The built preload (`out/preload/index.js`) as Electron's sandboxed preload runs it: a CommonJS function whose
 * only `require` is `electron`. A recording contextBridge and ipcRenderer show what the page gets.
 */
interface Loaded {
  readonly exposed: Map<string, unknown>
  readonly invoked: Array<{ channel: string; args: unknown[] }>
  readonly listening: string[]
  readonly required: string[]
}

function loadPreload(): Loaded {
  const loaded: Loaded = { exposed: new Map(), invoked: [], listening: [], required: [] }
  const electron = {
    contextBridge: {
      exposeInMainWorld: (key: string, api: unknown) => loaded.exposed.set(key, api),
    },
    ipcRenderer: {
      invoke: async (channel: string, ...args: unknown[]) => {
        loaded.invoked.push({ channel, args })
        return { ok: true, value: null }
      },
      on: (channel: string) => loaded.listening.push(channel),
      removeListener: () => undefined,
    },
  }
  const code = readFileSync(PRELOAD_BUNDLE, 'utf8')
  const module = { exports: {} }
  const sandboxedRequire = (name: string): unknown => {
    loaded.required.push(name)
    if (name === 'electron') return electron
    throw new Error(`a sandboxed preload cannot require ${name}`)
  }
  new Function('require', 'module', 'exports', code)(sandboxedRequire, module, module.exports)
  return loaded
}

type Api = {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>
  on(channel: string, listener: (payload: unknown) => void): () => void
}

describe('the built preload', () => {
  beforeAll(async () => {
    await ensureBuiltBundles()
  }, 180_000)

  it('exposes exactly the contract as window.rosterdesk, frozen, and requires nothing but electron', () => {
    const loaded = loadPreload()
    expect([...loaded.exposed.keys()]).toEqual(['rosterdesk'])
    const api = loaded.exposed.get('rosterdesk') as Api
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on'])
    expect(Object.isFrozen(api)).toBe(true)
    expect(new Set(loaded.required)).toEqual(new Set(['electron']))
  })

  it('forwards every contract channel and refuses any other without reaching ipcRenderer', async () => {
    const loaded = loadPreload()
    const api = loaded.exposed.get('rosterdesk') as Api
    for (const channel of INVOKE_CHANNELS) await api.invoke(channel)
    expect(loaded.invoked.map((call) => call.channel)).toEqual([...INVOKE_CHANNELS])

    for (const channel of ['__ELECTRON_LOG__', 'settings:delete-everything', 'sync:start ', '']) {
      expect(await api.invoke(channel)).toMatchObject({ ok: false, error: { code: 'validation' } })
    }
    expect(loaded.invoked).toHaveLength(INVOKE_CHANNELS.length)

    for (const channel of EVENT_CHANNELS) api.on(channel, () => undefined)
    expect(loaded.listening).toEqual([...EVENT_CHANNELS])
    expect(() => api.on('ELECTRON_BROWSER_WINDOW_ALERT', () => undefined)).toThrow(/Unknown event channel/)
    expect(loaded.listening).toHaveLength(EVENT_CHANNELS.length)
  })
})
