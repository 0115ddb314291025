import { EventEmitter } from 'node:events'
import Module from 'node:module'
import { Socket } from 'node:net'
import { isMainThread } from 'node:worker_threads'
import type { StandInProxyConfig } from './proxy-rules'
import { LINK_FD, onLines, type FromUtility, type ToUtility } from './utility-link'
import { createUtilityNet, type StandInNet } from './utility-net'

/**
 * Preloaded (`--require`) into the core process the stand-in's utilityProcess.fork starts: makes it look like
 * Electron's utility process where RosterDesk looks (`process.type` is 'utility': electron 45.4.1
 * docs/api/process.md) and answers `require('electron')` with the utility-process API RosterDesk uses, `net`
 * (lib/utility/api/net.ts), modelled in utility-net.ts. Its session's proxy, its challenges and its requests
 * travel over the link to main's stand-in (utility-link.ts). Worker threads get nothing: no Electron module
 * exists there (docs/tutorial/multithreading.md).
 */
if (isMainThread) {
  ;(process as { type?: string }).type = 'utility'
  installParentPort()
  let utility: { readonly net: StandInNet } | undefined
  type Loader = (request: string, parent: unknown, isMain: boolean) => unknown
  const moduleWithLoader = Module as unknown as { _load: Loader }
  const originalLoad = moduleWithLoader._load
  moduleWithLoader._load = function load(request, parent, isMain) {
    if (request === 'electron' || request === 'electron/utility') return (utility ??= openUtility())
    return originalLoad.call(this, request, parent, isMain)
  }

  function openUtility(): { readonly net: StandInNet } {
    const link = new Socket({ fd: LINK_FD, readable: true, writable: true })
    // The link must not keep the process alive: it ends with its job channel, as Electron's does.
    link.unref()
    const send = (message: FromUtility) => void link.write(`${JSON.stringify(message)}\n`)
    let config: StandInProxyConfig = JSON.parse(
      process.env['STANDIN_PROXY_CONFIG'] ?? '{}',
    ) as StandInProxyConfig
    let online = process.env['STANDIN_ONLINE'] !== '0'
    // The session's auth cache as it stood at the fork, kept in step both ways (utility-net.ts, AuthCache).
    const sessionCache = new Map<string, string>(
      JSON.parse(process.env['STANDIN_AUTH_CACHE'] ?? '[]') as Array<[string, string]>,
    )
    const authCache = {
      get: (key: string) => sessionCache.get(key),
      set: (key: string, value: string) => {
        sessionCache.set(key, value)
        send({ type: 'auth-cached', key, value })
      },
    }
    let nextLogin = 1
    const logins = new Map<number, (credentials: readonly [string, string] | undefined) => void>()
    let nextVerification = 1
    const verifications = new Map<number, (result: number) => void>()
    onLines(link, (raw) => {
      const message = raw as ToUtility
      if (message.type === 'proxy-config') {
        config = message.config
        send({ type: 'proxy-config-applied', id: message.id })
      } else if (message.type === 'online') {
        online = message.value
      } else if (message.type === 'verify-answer') {
        verifications.get(message.id)?.(message.result)
        verifications.delete(message.id)
        if (verifications.size === 0 && logins.size === 0) link.unref()
      } else if (message.type === 'auth-cache') {
        sessionCache.set(message.key, message.value)
      } else {
        logins.get(message.id)?.(message.credentials ?? undefined)
        logins.delete(message.id)
      }
    })
    return {
      net: createUtilityNet(
        {
          proxyConfig: () => config,
          record: (entry) => send({ type: 'net-request', ...entry }),
          isOnline: () => online,
          // Main's session answers (its verify proc, or Chromium's verdict when none is set): the stand-in's
          // UtilityProcess asks it on this process's behalf, as the network service asks the session's client.
          verifyCertificate: (request) =>
            new Promise<number>((resolve) => {
              const id = nextVerification++
              verifications.set(id, resolve)
              link.ref()
              send({ type: 'verify-certificate', id, request })
            }),
          login: (details, authInfo) =>
            new Promise((resolve) => {
              // Without respondToAuthRequestsFromMainProcess the challenge stays in this process, on the
              // ClientRequest's own 'login' event, which RosterDesk never listens to: cancelled.
              if (process.env['STANDIN_AUTH_FROM_MAIN'] !== '1') return resolve(undefined)
              const id = nextLogin++
              logins.set(id, resolve)
              link.ref()
              send({ type: 'login', id, details, authInfo })
            }).finally(() => {
              if (logins.size === 0 && verifications.size === 0) link.unref()
            }) as Promise<readonly [string, string] | undefined>,
        },
        authCache,
      ),
    }
  }
}

/**
 * Electron's utility process serves its parent through `process.parentPort` (lib/utility/init.ts,
 * lib/utility/parent-port.ts): 'message' events carry `{ data, ports }`, postMessage structured-clones the value
 * (shell/services/node/parent_port.cc, as electron::SerializeV8Value: a Buffer arrives as a Uint8Array). It has
 * no Node IPC channel, so `process.send` is absent and the process never sees 'disconnect'. Here the channel
 * is the fork's: it is taken from `process` and hidden behind the port, and its 'disconnect' (main is gone)
 * ends the process as Chromium ends a child whose browser process is gone (ChildThreadImpl's channel error),
 * without a 'disconnect' event reaching the app's listeners.
 */
function installParentPort(): void {
  const send = process.send?.bind(process)
  if (send === undefined) return
  const port = new EventEmitter()
  process.on('message', (data: unknown) => port.emit('message', { data, ports: [] }))
  const emit = process.emit.bind(process) as (name: string | symbol, ...args: unknown[]) => boolean
  ;(process as { emit: unknown }).emit = (name: string | symbol, ...args: unknown[]): boolean => {
    if (name === 'disconnect') process.exit(0)
    return emit(name, ...args)
  }
  Object.defineProperty(process, 'send', { value: undefined, configurable: true, writable: true })
  Object.defineProperty(process, 'parentPort', {
    enumerable: true,
    value: Object.assign(port, {
      postMessage: (message: unknown) => void send(structuredClone(message) as never),
      start: () => undefined,
      pause: () => undefined,
    }),
  })
}
