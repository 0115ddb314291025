import { app, dialog, type BrowserWindow, type Session } from 'electron'
import type { Logger } from '../../core/log/logger'
import type { SecretVault } from '../../core/secrets/secret-store'
import type { ShellNetwork } from '../core-process/remote-app-core'
import type { UtilityNetworkOptions } from '../adapters/utility-process-channel'
import type { MainInvokeHandlers } from '../ipc/register-invoke-handlers'
import { windowEventSink } from '../ipc/window-event-sink'
import { loadExtraCertificates } from '../../core/settings/network-settings'
import { createCoreNetwork } from './core-network'
import { ProxySignIn, RememberedProxyCredentials } from './proxy-sign-in'

/** Main's part of the app's network, wired once: see createShellNetwork. */
export interface ShellNetworkParts {
  /** How the core process is forked: its session, and main's answer to its proxies' challenges. */
  readonly utility: UtilityNetworkOptions
  /** What the core process asks of main about its network (remote-app-core.ts calls). */
  readonly services: ShellNetwork
  /** The channel main answers itself: the window's answer to a proxy's sign-in request. */
  readonly mainHandlers: MainInvokeHandlers
  /**
   * What another of main's sessions needs to go where the core's requests go (the updater's): `follow` applies
   * the same proxy and extra certificates to it, and `onLogin` answers its proxies' challenges as the core's are.
   */
  readonly follower: {
    follow(session: Session): Promise<void>
    readonly onLogin: ProxySignIn['onLogin']
  }
}

/**
 * The core process's network as main holds it (decision 037): an in-memory session of its own with the
 * profile's proxy and extra certificates (core-network.ts), proxy sign-in through the window's dialog with
 * sign-ins remembered by safeStorage (proxy-sign-in.ts), the client certificate the profile names, for every
 * request's 'select-client-certificate' (client-certificate.ts), and the open dialog for a certificate file. Call after
 * `ready`, with the app's secret vault and the window (which may be closed when a proxy asks).
 */
export function createShellNetwork(options: {
  readonly logger: Logger
  readonly secrets: SecretVault
  readonly window: () => BrowserWindow | undefined
}): ShellNetworkParts {
  const { logger, window } = options
  const network = createCoreNetwork({ logger, switches: app.commandLine, env: process.env })
  // Every request's client-certificate question, the core's and the updater's (the event names no session).
  app.on('select-client-certificate', network.onSelectClientCertificate)
  const remembered = new RememberedProxyCredentials(options.secrets)
  const events = windowEventSink(() => window()?.webContents)
  const signIn = new ProxySignIn({
    remembered,
    logger,
    ask: (request) => {
      const contents = window()?.webContents
      if (contents === undefined || contents.isDestroyed()) return false
      events.emit('network:proxy-sign-in', request)
      return true
    },
    discoveredPlainProxy: (proxy, url) => network.discoveredPlainProxy(proxy, url),
    confirmPlainProxy: async (proxy) => {
      const box = {
        type: 'warning' as const,
        title: 'Proxy sign-in',
        message: `Send your saved proxy sign-in to ${proxy}?`,
        detail:
          'This proxy was found automatically (your network’s proxy settings or PAC file), and the connection to it is not encrypted: anyone on the network who can pose as it could read your proxy password. Send it only if IT told you this proxy is yours. RosterDesk asks once for this proxy.',
        buttons: ['Send', 'Don’t send'],
        defaultId: 1,
        cancelId: 1,
        noLink: true,
      }
      const owner = window()
      const { response } = owner ? await dialog.showMessageBox(owner, box) : await dialog.showMessageBox(box)
      return response === 0
    },
  })
  return {
    utility: { session: network.session, signIn },
    services: {
      apply: (settings) => network.apply(settings),
      resolveProxy: (url) => network.resolveProxy(url),
      facts: (host) => network.facts(host),
      rememberedProxies: () => remembered.list(),
      forgetProxy: async (proxy) => {
        await remembered.delete(proxy)
        logger.info(`Proxy sign-in for ${proxy} forgotten`)
      },
      chooseCertificatesFile: async () => {
        const dialogOptions = {
          title: 'Extra trusted certificates',
          buttonLabel: 'Trust these certificates',
          properties: ['openFile' as const],
          filters: [
            { name: 'Certificates (PEM)', extensions: ['pem', 'crt', 'cer'] },
            { name: 'All files', extensions: ['*'] },
          ],
        }
        const owner = window()
        const result = owner
          ? await dialog.showOpenDialog(owner, dialogOptions)
          : await dialog.showOpenDialog(dialogOptions)
        const path = result.canceled ? undefined : result.filePaths[0]
        if (path === undefined) return undefined
        // Checked here, as it is read, once: a local file holding PEM certificates, else what is wrong with it.
        network.chosen(path, loadExtraCertificates(path))
        logger.info('Network: extra trusted certificates chosen in the open dialog')
        return path
      },
    },
    mainHandlers: {
      'network:answer-proxy-sign-in': async (id, answer) => signIn.answer(id, answer),
    },
    follower: { follow: (other) => network.follow(other), onLogin: signIn.onLogin },
  }
}
