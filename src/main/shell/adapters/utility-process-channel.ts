import { utilityProcess, type Session } from 'electron'
import type { JobChannelStarter, WorkerEntry } from '../../core-host/worker/worker-host'
import type { ProxySignIn } from '../network/proxy-sign-in'

/** The core process's network: its own session, and main's answer to its proxies' challenges (decision 037). */
export interface UtilityNetworkOptions {
  readonly session: Session
  readonly signIn: Pick<ProxySignIn, 'onLogin'>
}

/** The core process's name to Electron: `serviceName`, which `child-process-gone` gives back as `name`. */
export const CORE_SERVICE_NAME = 'RosterDesk core'

/** How long ending the process may take to be confirmed before the shell stops waiting for it. */
const TERMINATE_WAIT_MS = 5_000

/**
 * Electron's utilityProcess as a job channel: the app core runs there (ARCHITECTURE, "Runtimes and threads"), as Electron's
 * performance guide advises for heavy work, with Node's APIs and none of main's. Messages are structured
 * clones both ways (buffers copied: a utility process moves only MessagePorts). Its stderr (a native crash's
 * last words) goes to the log; its own log entries come as messages. It never keeps the app alive by itself,
 * so ref/unref have nothing to do. With `network`, it is forked with a session of its own and main answers its
 * proxies' sign-in challenges: with a session and `respondToAuthRequestsFromMainProcess`, Electron emits a
 * challenge as `login` on this UtilityProcess (shell/browser/login_handler.cc, the `has_session()` branch of
 * EmitEvent); without a session its requests would use the system network context, to which only `app.setProxy`
 * and `app`'s `login` apply (electron 45.4.1 docs/api/utility-process.md, `partition`).
 */
export function utilityProcessChannel(
  entry: WorkerEntry,
  network?: UtilityNetworkOptions,
): JobChannelStarter {
  return {
    start(name, logger) {
      const child = utilityProcess.fork(entry.file, [], {
        serviceName: CORE_SERVICE_NAME,
        execArgv: [...entry.execArgv],
        stdio: ['ignore', 'ignore', 'pipe'],
        // Its requests use this session (proxy, verify proc) and their 401/407 challenges come to main as this
        // process's 'login' events (electron 45.4.1 docs/api/utility-process.md; shell/browser/login_handler.cc).
        ...(network === undefined
          ? {}
          : { session: network.session, respondToAuthRequestsFromMainProcess: true }),
      })
      if (network !== undefined) child.on('login', network.signIn.onLogin)
      child.stderr?.setEncoding('utf8')
      child.stderr?.on('data', (text: string) => logger.warn(`${name} (stderr): ${text.trimEnd()}`))
      let exited = false
      const exit = new Promise<void>((resolve) =>
        child.once('exit', () => {
          exited = true
          resolve()
        }),
      )
      return {
        postMessage: (message) => child.postMessage(message),
        onMessage: (listener) => void child.on('message', listener),
        onError: (listener) =>
          void child.on('error', (type: string, location: string) =>
            listener(new Error(`${name}: ${type} at ${location}`)),
          ),
        onExit: (listener) => void child.on('exit', listener),
        ref: () => undefined,
        unref: () => undefined,
        terminate: async () => {
          if (exited) return
          // kill() refuses a process not launched yet (no pid), which may still launch later and run the jobs
          // queued for it: end it as soon as it does.
          if (!child.kill() && child.pid === undefined) child.once('spawn', () => child.kill())
          await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, TERMINATE_WAIT_MS))])
        },
      }
    },
  }
}
