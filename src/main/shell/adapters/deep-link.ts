import { resolve } from 'node:path'
import { parseCallbackUrl } from '../../core/auth/callback-url'

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

/**
 * The extra arguments of `app.setAsDefaultProtocolClient(scheme, ...)`. In development (`process.defaultApp`)
 * the registered command must be `electron.exe <path to the app>`, otherwise Windows would start bare Electron;
 * packaged, the executable alone is right. Use as `app.setAsDefaultProtocolClient(scheme, ...protocolClientArgs(
 * process.defaultApp === true, process.execPath, process.argv))`.
 */
export function protocolClientArgs(
  isDefaultApp: boolean,
  execPath: string,
  argv: readonly string[],
): [] | [string, string[]] {
  const appPath = argv[1]
  if (!isDefaultApp || appPath === undefined) return []
  return [execPath, [resolve(appPath)]]
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
