import { existsSync } from 'node:fs'
import { dispatchInvoke } from '../../core/ipc/dispatch'
import { locateCacheFolders, type CacheFolders } from '../../core/cache/cache-folders'
import { hasCachesToMove, moveCaches, nodeMoveFs, type MoveFs } from '../../core/cache/cache-move'
import type { EventSink } from '../../core/ipc/dispatch'
import { createAppCore, type AppCore } from '../../core/session/create-app-core'
import { RosterDeskError } from '../../core/errors'
import type { SecretVault } from '../../core/secrets/secret-store'
import type { DemoEnvironment } from '../../core/settings/resolve-environment'
import { SettingsStore } from '../../core/settings/settings-store'
import { openSettingsFile } from '../../core/settings/settings-file'
import { forwardingLogger, serveJobs, type JobHandlers, type JobPort } from '../worker/serve-jobs'
import { coreWorkerRunners } from '../worker/worker-runners'
import { appCacheKey } from '../../core/secrets/app-cache-key'
import type { CoreProcessJobs } from './core-process-jobs'
import { processPort } from './process-channel'
import { proxyRoute, shellAppNetwork } from './app-network'
import { electronNetFetch, type UtilityNet } from './electron-net-fetch'
import type { FetchLike } from '../../core/api/fetch-like'
import type { Logger } from '../../core/log/logger'
import { clientCertificateOf, networkSettingsOf, serviceHostOf } from '../../core/settings/network-settings'
import type { PolicyInForce } from '../../core/policy/policy-in-force'
import { loadMachinePolicy, type PolicySourceDeps } from '../../core/policy/policy-sources'
import { systemPolicySources } from '../../core/policy/registry-query'

/** The in-app sandbox Demo talks to, started in this process. */
export interface DemoService {
  readonly environment: DemoEnvironment
  close(): Promise<void>
}

/** What the entry file gives: the demo sandbox, which core may not import (it shares no code with core). */
export interface CoreProcessDeps {
  startDemo(): Promise<DemoService>
  /**
   * Electron's `net`, when this process is Electron's utility process: every request to the service then goes
   * through Chromium's network stack (electron-net-fetch.ts). Absent under plain Node: Node's fetch.
   */
  readonly net?: UtilityNet
  /** Reads the machine policy; absent: `loadMachinePolicy` over the system's sources. */
  readonly loadPolicy?: (sources: PolicySourceDeps) => Promise<PolicyInForce>
}

/**
 * The core process's job handlers: the app core (createAppCore, exactly as in one process) built by `serve`, and
 * every renderer request answered by `invoke`. What only the shell has (secrets, the browser, dialogs, the
 * printer) is asked through `serve`'s calls; the app's events go back as its reports. Cancelling `serve` closes
 * the core as a quit does (a sync or export stops and lets go of the cache), and the job ends after that.
 */
export function coreProcessHandlers(deps: CoreProcessDeps): JobHandlers<CoreProcessJobs> {
  let core: Promise<AppCore> | undefined
  const running = (): Promise<AppCore> => {
    if (core === undefined)
      throw new RosterDeskError('internal', 'RosterDesk is still starting. Try again in a moment.', {
        detail: 'core process: a request came before serve',
      })
    return core
  }
  return {
    async serve(config, context) {
      if (core !== undefined) throw new Error('core process: serve was sent twice')
      const { logger } = context
      const vault: SecretVault = {
        persistent: config.secretsPersistent,
        get: (key) => context.call('secret-get', key),
        set: async (key, value) => void (await context.call('secret-set', { key, value })),
        delete: async (key) => void (await context.call('secret-delete', key)),
      }
      const events: EventSink = {
        emit: (channel, payload) => {
          // Another profile is active: its network settings apply from the next request on.
          if (channel === 'profiles:changed') network?.update()
          context.progress({ type: 'event', channel, payload })
        },
      }
      const settingsBackend = openSettingsFile(config.dataDir, (message) => logger.warn(message))
      let network: ReturnType<typeof shellNetworkSync> | undefined
      const starting = (async () => {
        // The machine policy, read once at start (decision 042); a packaged app never reads ROSTERDESK_POLICY_FILE.
        const policy = await (deps.loadPolicy ?? loadMachinePolicy)(
          systemPolicySources(config.packaged ?? false),
        )
        if (policy.problem !== undefined) logger.warn(`${policy.problem.message} (${policy.problem.detail})`)
        else if (policy.source !== undefined) logger.info(`Machine policy in force from ${policy.source}`)
        const settings = new SettingsStore(settingsBackend, policy)
        network = config.usesShellNetwork ? shellNetworkSync(context, settings, logger) : undefined
        await network?.applied()
        // The user's cache key, before any cache opens: from the vault (main's safeStorage), else the key file the
        // policy allows, else this start's own (app-cache-key.ts). It goes to the core and its worker only.
        const cacheKey = await appCacheKey({
          vault,
          dataDir: config.dataDir,
          keyFileAllowed: policy.policy?.personalData?.cacheKeyFile === true,
          logger,
        })
        const demo = await deps.startDemo()
        try {
          return await createAppCore({
            appInfo: config.appInfo,
            dataDir: config.dataDir,
            caches: await settleCacheFolders(config.dataDir, config.cacheRoot ?? config.dataDir, logger, {
              report: (type) => context.progress({ type }),
            }),
            ...(config.receivesSchemeCallbacks === undefined
              ? {}
              : { receivesSchemeCallbacks: config.receivesSchemeCallbacks }),
            settings,
            secrets: vault,
            cacheKey: cacheKey.key,
            cacheKeyKept: cacheKey.kept,
            fetch: appFetch(deps, network, context),
            ...(network === undefined ? {} : { network: shellAppNetwork(context) }),
            openExternal: async (url) => void (await context.call('open-external', url)),
            demo,
            runners: coreWorkerRunners({ logger, cacheKey: cacheKey.key }),
            onSyncStarted: (runId) => context.progress({ type: 'sync-started', runId }),
            ...(config.replacesStopped === true ? { noLaunchSync: true } : {}),
            events,
            logger,
            uiState: settingsBackend,
            chooseExportPath: (defaultPath, format) =>
              context.call('choose-export-path', { defaultPath, format }),
            shellFacts: () => context.call('shell-facts', null),
            revealFile: (path) =>
              void context
                .call('reveal-file', path)
                .catch((error: unknown) => logger.warn('Showing an exported file failed', error)),
            ...(config.offersPrint ? { printPage: (page) => context.call('print-page', page) } : {}),
            writeClipboard: async (content) => void (await context.call('clipboard-write', content)),
          })
        } catch (error) {
          await demo.close()
          throw error
        }
      })()
      core = starting
      const app = await starting
      if (!context.signal.aborted) context.progress({ type: 'ready' })
      // Serves until the shell cancels this job (a quit), then closes the app core as the one-process app does.
      await new Promise<void>((resolve) => {
        if (context.signal.aborted) resolve()
        else context.signal.addEventListener('abort', () => resolve(), { once: true })
      })
      await app.close()
      return null
    },
    async invoke({ channel, args }, context) {
      const app = await running()
      return dispatchInvoke(app.handlers, channel, args, context.logger)
    },
    async 'callback-url'(url) {
      const app = await running()
      return app.handleCallbackUrl(url)
    },
  }
}

/** What `settleCacheFolders` takes besides the folders. */
export interface SettleCacheOptions {
  /**
   * Told `moving-caches` before a move starts and `caches-settled` once it is over, so main's start timer does not
   * count a copy across volumes (minutes for hundreds of MB on a share); nothing when there is nothing to move.
   */
  readonly report?: (type: 'moving-caches' | 'caches-settled') => void
  /** Node's fs unless a test stops or slows the move. */
  readonly fs?: MoveFs
}

/**
 * Moves the caches still under the data folder to the cache root (decision 046) and says where each profile's is.
 * A move that fails unexpectedly is logged and the app starts anyway: every profile is whole where
 * `locateCacheFolders` finds it, and the next start finishes what the journal holds.
 */
export async function settleCacheFolders(
  dataDir: string,
  cacheRoot: string,
  logger: Logger,
  options: SettleCacheOptions = {},
): Promise<CacheFolders> {
  const fs = options.fs ?? nodeMoveFs
  const deps = { fs, from: dataDir, to: cacheRoot, logger }
  if (dataDir !== cacheRoot && hasCachesToMove(deps)) {
    options.report?.('moving-caches')
    // The move is synchronous: one turn of the event loop first, so the report leaves before it starts.
    await new Promise<void>((resolve) => setImmediate(resolve))
    try {
      moveCaches(deps)
    } catch (error) {
      logger.error(`Moving the saved employees to ${cacheRoot} failed; they are used where they are`, error)
    }
    options.report?.('caches-settled')
  }
  return locateCacheFolders(existsSync, dataDir, cacheRoot)
}

type ServeContext = Parameters<JobHandlers<CoreProcessJobs>['serve']>[1]

/**
 * Keeps main's session for this process in step with the active profile's network settings: applied before the
 * app core starts, again when the settings change or another profile becomes active. `applied` settles once the
 * latest settings are in force, which every request waits for.
 */
function shellNetworkSync(
  context: ServeContext,
  settings: SettingsStore,
  logger: Logger,
): { applied(): Promise<void>; update(): void } {
  let last = ''
  let applying: Promise<void> = Promise.resolve()
  const update = (): void => {
    // The machine policy's network is in the settings already; its proxy takes the precedence's `policy` slot.
    const current = settings.get()
    const serviceHost = serviceHostOf(current)
    const certificate = clientCertificateOf(current)
    const wanted = {
      ...networkSettingsOf(current),
      ...(settings.policy.setsProxy ? { proxyFromPolicy: true } : {}),
      ...(serviceHost === undefined ? {} : { serviceHost }),
      ...(certificate === undefined ? {} : { clientCertificate: certificate }),
    }
    const key = JSON.stringify(wanted)
    if (key === last) return
    last = key
    applying = applying
      .then(() => context.call('network-apply', wanted))
      .then(
        (applied) => {
          if (applied.problem !== undefined) logger.warn(`Network settings: ${applied.problem}`)
        },
        (error: unknown) => logger.warn('Network settings could not be applied', error),
      )
  }
  settings.onChange(() => update())
  update()
  return { applied: () => applying, update }
}

/** Electron's network stack when this process has it (waiting for main's session to be set), else Node's fetch. */
function appFetch(
  deps: CoreProcessDeps,
  network: { applied(): Promise<void> } | undefined,
  context: ServeContext,
): FetchLike {
  if (deps.net === undefined) return (input, init) => fetch(input, init)
  return electronNetFetch(deps.net, {
    ...(network === undefined ? {} : { networkReady: () => network.applied() }),
    failureFacts: async (url, concerns) => {
      if (network === undefined || !URL.canParse(url)) return {}
      if (concerns === 'certificate') {
        const { refused } = await context.call('network-facts', new URL(url).hostname)
        if (refused === undefined) return {}
        const { subject, issuer, validTo, why } = refused
        return {
          certificate: {
            subject,
            issuer,
            ...(validTo === undefined ? {} : { validTo }),
            ...(why === undefined ? {} : { why }),
          },
        }
      }
      if (concerns === 'other') return {}
      // A proxy's answer, or a connection that failed: through a proxy, the proxy is what was reached.
      const route = proxyRoute(await context.call('network-resolve-proxy', url))
      return route.kind === 'proxy' ? { proxy: route.url } : {}
    },
  })
}

/** Runs the core process: call once from its entry file. */
export function serveCoreProcess(deps: CoreProcessDeps, port: JobPort = processPort()): void {
  // Its failures go to main's log as its other entries do (stderr may be cut off when the process exits). An
  // uncaught exception ends the process (main starts a fresh one); an unhandled rejection is logged, as main
  // did when it held the app core, whether Electron or Node runs the process.
  const logger = forwardingLogger(port)
  process.on('uncaughtException', (error) => {
    logger.error('Uncaught exception in the core process', error)
    setTimeout(() => process.exit(70), 100)
  })
  process.on('unhandledRejection', (reason) => {
    logger.error('Unhandled promise rejection in the core process', reason)
  })
  serveJobs<CoreProcessJobs>(coreProcessHandlers(deps), port)
}
