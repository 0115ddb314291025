import { parseCallbackUrl } from '../../core/auth/callback-url'
import { protocolClientAction } from '../window-and-startup/protocol-client'

/**
 * How sign-in callbacks reach the app. The browser opens `com.rosterdesk.app:/oauth/callback?...`; the OS then
 * starts RosterDesk or hands the URL to the running copy: macOS through `open-url` (also on a cold start),
 * Windows and Linux as a command-line argument of a second instance, which the single-instance lock forwards
 * to the first one through `second-instance`.
 */

/** The custom scheme of a redirect URI (`com.rosterdesk.app`), or undefined for a loopback http one. */
export function schemeOf(redirectUri: string): string | undefined {
  const parsed = parseCallbackUrl(redirectUri)
  return parsed.kind === 'custom-scheme' ? parsed.scheme : undefined
}

/** The first argument that is a URL of `scheme` (Windows/Linux pass the callback as a plain argument). */
export function findCallbackUrlInArgv(argv: readonly string[], scheme: string): string | undefined {
  const prefix = `${scheme.toLowerCase()}:`
  return argv.find((arg) => arg.toLowerCase().startsWith(prefix))
}

/** What `registerProtocolClients` needs of Electron's `app` (electron 45.4.1 docs/api/app.md). */
export interface ProtocolClientApp {
  setAsDefaultProtocolClient(protocol: string): boolean
  isDefaultProtocolClient(protocol: string): boolean
  getApplicationInfoForProtocol(url: string): Promise<{ readonly path: string }>
}

export interface ProtocolClientOptions {
  readonly isPackaged: boolean
  readonly platform: NodeJS.Platform
  readonly execPath: string
  readonly log: (message: string) => void
}

/**
 * Registers the app for each sign-in scheme where protocolClientAction says so (packaged only; on Windows only
 * when Windows does not already resolve the scheme to this executable), and says in the log what it did.
 */
export async function registerProtocolClients(
  app: ProtocolClientApp,
  schemes: readonly string[],
  options: ProtocolClientOptions,
): Promise<void> {
  for (const scheme of schemes) {
    const windows = options.isPackaged && options.platform === 'win32'
    const action = protocolClientAction({
      ...options,
      userKeyIsOurs: windows && app.isDefaultProtocolClient(scheme),
      // Rejects when nothing is registered for the scheme (browser_win.cc): then it is ours to write.
      resolvedHandler: windows
        ? await app.getApplicationInfoForProtocol(`${scheme}://`).then(
            (info) => info.path,
            () => undefined,
          )
        : undefined,
    })
    if (action === 'register') app.setAsDefaultProtocolClient(scheme)
    else if (action === 'already-registered')
      options.log(`Sign-in scheme ${scheme}: already registered with Windows for this executable`)
    else
      options.log(
        `Sign-in scheme ${scheme}: not registered (not a packaged app; Demo signs in over loopback)`,
      )
  }
}

/** What `installDeepLinkHandling` needs of Electron's `app`, structurally, so tests can pass an EventEmitter. */
export interface DeepLinkApp {
  requestSingleInstanceLock(): boolean
  quit(): void
  on(event: 'open-url', listener: (event: { preventDefault(): void }, url: string) => void): unknown
  on(
    event: 'second-instance',
    listener: (event: unknown, argv: string[], workingDirectory: string) => void,
  ): unknown
}

export type DeepLinkHandler = (url: string) => void

export interface DeepLinkOptions {
  /** The custom scheme to watch for, e.g. `schemeOf(DEFAULT_REDIRECT_URI)`. */
  scheme: string
  /** This process's command line (`process.argv`); a cold start on Windows/Linux carries the URL here. */
  argv: readonly string[]
  /** Optional handler now; URLs that arrive before one is attached are kept and delivered in order. */
  onUrl?: DeepLinkHandler
}

export interface DeepLinkHandle {
  /** False when another RosterDesk already runs: this one has asked to quit and handles nothing. */
  readonly primary: boolean
  /** Attaches the handler (normally `url => void authService.handleCallbackUrl(url)` plus focusing the window). */
  attach(handler: DeepLinkHandler): void
}

/**
 * Takes the single-instance lock and routes callback URLs to one handler. Call it in the main module's top level,
 * before `app` is ready: macOS delivers the URL of a cold start through `open-url` before `ready`, and a listener
 * registered later misses it. URLs are buffered until a handler is attached (sign-in needs the secret store,
 * which only exists after `ready`).
 */
export function installDeepLinkHandling(app: DeepLinkApp, options: DeepLinkOptions): DeepLinkHandle {
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return { primary: false, attach: () => undefined }
  }
  const buffered: string[] = []
  let handler: DeepLinkHandler | undefined = options.onUrl
  const deliver = (url: string): void => {
    if (handler) handler(url)
    else buffered.push(url)
  }

  app.on('open-url', (event, url) => {
    event.preventDefault()
    if (url.toLowerCase().startsWith(`${options.scheme.toLowerCase()}:`)) deliver(url)
  })
  app.on('second-instance', (_event, argv) => {
    const url = findCallbackUrlInArgv(argv, options.scheme)
    if (url !== undefined) deliver(url)
  })
  const initial = findCallbackUrlInArgv(options.argv, options.scheme)
  if (initial !== undefined) deliver(initial)

  return {
    primary: true,
    attach: (next) => {
      handler = next
      for (const url of buffered.splice(0)) next(url)
    },
  }
}
