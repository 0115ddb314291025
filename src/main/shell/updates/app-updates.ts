import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { app, autoUpdater as squirrel, type Session } from 'electron'
import { NsisUpdater, autoUpdater } from 'electron-updater'
import type { MachinePolicy } from '../../core/policy/policy-schema'
import type { Logger } from '../../core/log/logger'
import type { UpdateState } from '../../../shared/update-state'
import type { MainInvokeHandlers } from '../ipc/register-invoke-handlers'
import type { LoginAuthInfo, LoginCallback, ProxySignIn } from '../network/proxy-sign-in'
import { macAppIsSigned } from './mac-signature'
import { UpdateController } from './update-controller'
import { updateSetup } from './update-setup'
import { namesPublisher, verifyWindowsSignature } from './windows-signature'

export interface AppUpdatesOptions {
  /** The machine policy's `updates` section (enabled, channel, feedUrl), or undefined: given once by the caller. */
  readonly policy: MachinePolicy['updates'] | undefined
  /** Why the caller turns updates off (an MSI or per-machine install), or undefined. */
  readonly disabledReason: string | undefined
  readonly logger: Logger
  /** The app's network for main's other sessions (shell-network.ts `follower`). */
  readonly network: {
    follow(session: Session): Promise<void>
    readonly onLogin: ProxySignIn['onLogin']
  }
  /** Why a restart must wait (busy-work.ts), or undefined. */
  readonly busy: () => Promise<string | undefined>
  /** Main's quit path up to the exit (the core closed), run before the installer starts. */
  readonly closeForRestart: () => Promise<void>
  /** Back from a restart that did not install: the core started again, the window shown (decision 050). */
  readonly reopenAfterFailedRestart: () => Promise<void>
  /** Sends a state to the window. */
  readonly emit: (state: UpdateState) => void
}

export interface AppUpdates {
  readonly controller: UpdateController
  /** `updates:get-state`, `updates:check`, `updates:restart`, answered by main. */
  readonly mainHandlers: MainInvokeHandlers
}

/**
 * The updater as the shell runs it (call after `ready`): decides whether it runs (update-setup.ts; on macOS, after
 * asking codesign whether this copy is signed), takes electron-updater's updater for this platform (its
 * `autoUpdater`: NsisUpdater, MacUpdater or AppImageUpdater, electron-updater's main.js), and has that updater's
 * own session (`session.fromPartition('electron-updater', { cache: false })`, electronHttpExecutor.js) follow the
 * app's proxy and extra certificates, its proxies' challenges answered as the core's are.
 */
export async function createAppUpdates(options: AppUpdatesOptions): Promise<AppUpdates> {
  // electron-updater reads the build's feed from here in a packaged app (ElectronAppAdapter.appUpdateConfigPath).
  const builtFeed = app.isPackaged ? readBuiltFeed(join(process.resourcesPath, 'app-update.yml')) : undefined
  const base = {
    policy: options.policy,
    disabledReason: options.disabledReason,
    isPackaged: app.isPackaged,
    builtFeed: builtFeed !== undefined,
    platform: process.platform,
    publisherNamed: builtFeed !== undefined && namesPublisher(builtFeed),
  }
  let setup = updateSetup({ ...base, macSigned: undefined })
  if (setup.on && process.platform === 'darwin')
    setup = updateSetup({ ...base, macSigned: await macAppIsSigned(process.execPath) })
  if (!setup.on) options.logger.info(`Updates: ${setup.state.status}`)

  const answered = new Set<string>()
  let updater: typeof autoUpdater | undefined
  if (setup.on) {
    updater = autoUpdater
    // electron-updater's own check lets an installer through when PowerShell cannot tell (an old PowerShell, an
    // error, no path in its report: windowsExecutableCodeSignatureVerifier.ts); this one refuses it then.
    if (updater instanceof NsisUpdater)
      updater.verifyUpdateCodeSignature = (names, file) => verifyWindowsSignature(names, file)
    // The same object electron-updater asks for before each request (getNetSession), made here first.
    await options.network.follow(updater.netSession)
    // electron-updater hands a ClientRequest's 'login' (authInfo, callback) on as its own 'login' event and never
    // answers it itself, so this listener must always answer. The first challenge of a proxy in a check is
    // answered with what is remembered; another means the proxy refused that, and the clerk is asked.
    updater.on('login', (authInfo: LoginAuthInfo, callback: (username: string, password: string) => void) => {
      const proxy = `${authInfo.host}:${authInfo.port}`
      const firstAuthAttempt = !answered.has(proxy)
      answered.add(proxy)
      // Electron's callback takes no arguments to cancel (docs/api/client-request.md, Event: 'login'), which
      // electron-updater's type does not say.
      const answer = callback as LoginCallback
      options.network.onLogin({ preventDefault: () => undefined }, { firstAuthAttempt }, authInfo, answer)
    })
  }
  const controller = new UpdateController({
    setup,
    updater: () => {
      if (updater === undefined) throw new Error('The updater is off')
      return updater
    },
    busy: options.busy,
    closeForRestart: options.closeForRestart,
    reopenAfterFailedRestart: options.reopenAfterFailedRestart,
    onQuit: (listener) => {
      app.on('before-quit', listener)
      return () => app.off('before-quit', listener)
    },
    ...(process.platform === 'darwin' ? { squirrel } : {}),
    emit: options.emit,
    logger: options.logger,
    onCheckStarting: () => answered.clear(),
  })
  return {
    controller,
    mainHandlers: {
      'updates:get-state': async () => controller.state,
      'updates:check': () => controller.check(),
      'updates:restart': () => controller.restart(),
    },
  }
}

/** The build's app-update.yml, or undefined when it has none (a build without a feed) or it cannot be read. */
function readBuiltFeed(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}
