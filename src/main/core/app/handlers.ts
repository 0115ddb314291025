import type {
  AppInfo,
  ExportFormat,
  ExportRequest,
  ServiceLookupRequest,
  ServiceLookupResult,
  SettingsView,
} from '../../../shared/domain'
import type { AuthService } from '../auth/auth-service'
import type { ChangeHistory } from '../changes/change-history'
import type { Clock } from '../clock'
import { RosterDeskError } from '../errors'
import { changesExportFileName } from '../export/export-file-name'
import type { ExportMemory } from '../export/export-memory'
import type { ExportService } from '../export/export-service'
import type { PagePrinter } from '../export/print-view'
import type { EventSink, InvokeHandlers } from '../ipc/dispatch'
import type { QueryEngine } from '../query/query-engine'
import type { SecretStore } from '../secrets/secret-store'
import type { ResolvedEnvironment } from '../settings/resolve-environment'
import type { SettingsStore } from '../settings/settings-store'
import { buildSettingsView } from '../settings/settings-view'
import type { SyncService } from '../sync/sync-service'
import { beginAppSync } from './begin-sync'
import type { ProfileChannel } from './profile-handlers'
import type { ViewChannel } from './view-handlers'

export interface HandlerDeps {
  readonly appInfo: Omit<AppInfo, 'environment'>
  readonly settings: SettingsStore
  readonly secrets: SecretStore
  readonly auth: AuthService
  readonly sync: SyncService
  readonly queries: QueryEngine
  /** The change report's history: the last complete syncs and whom each added, removed or changed. */
  readonly changes: ChangeHistory
  readonly exports: ExportService
  readonly exportMemory: ExportMemory
  readonly environment: () => ResolvedEnvironment
  readonly events: EventSink
  readonly clock: Pick<Clock, 'now'>
  /** The native save dialog, opened at `defaultPath` (a file name, in the last folder used when there is one). */
  readonly chooseExportPath: (defaultPath: string, format: ExportFormat) => Promise<string | undefined>
  readonly revealFile: (path: string) => void
  /** Looks employees up on the payroll service itself (core/service-lookup/service-lookup.ts). */
  readonly lookupService: (request: ServiceLookupRequest) => Promise<ServiceLookupResult>
  readonly defaultExportFileName: (request: ExportRequest, now: Date) => string
  /** Prints a generated page (the shell's hidden print window); absent where nothing can print (the CLI). */
  readonly printPage?: PagePrinter
}

/**
 * One handler per contract channel. Arguments arrive validated by dispatchInvoke; handlers translate between
 * the contract and the services and add the rules that belong to the app rather than to one service (a sync
 * needs a signed-in user; the save location comes from main's dialog, never from the renderer). The profile
 * channels are in profile-handlers.ts, the views' in view-handlers.ts.
 */
export function createHandlers(deps: HandlerDeps): Omit<InvokeHandlers, ProfileChannel | ViewChannel> {
  const settingsView = async (): Promise<SettingsView> =>
    buildSettingsView(deps.settings.get(), {
      hasClientSecret: (await deps.secrets.get('clientSecret')) !== undefined,
      persistent: deps.secrets.persistent,
    })

  /** The save dialog, with the export's writer made ready meanwhile (exceljs loading on the core worker). */
  const choosePath = async (defaultPath: string, format: ExportFormat): Promise<string | undefined> => {
    const ready = deps.exports.prepare(format)
    try {
      return await deps.chooseExportPath(defaultPath, format)
    } finally {
      // The export that follows keeps the writer busy itself; a cancelled dialog lets it go idle.
      ready()
    }
  }

  // One print dialog at a time: a second Ctrl+P while the first dialog is open is refused, not queued.
  let printing = false

  return {
    'app:get-info': async () => ({ ...deps.appInfo, environment: deps.settings.get().environment }),

    'auth:get-state': async () => deps.auth.getState(),
    'auth:sign-in': () => deps.auth.signIn(),
    'auth:cancel-sign-in': async () => deps.auth.cancelSignIn(),
    'auth:sign-out': () => deps.auth.signOut(),

    'settings:get': settingsView,
    'settings:update': async (patch) => {
      if (deps.sync.isRunning) {
        throw new RosterDeskError(
          'busy',
          'Settings cannot change while a sync is running. Wait or cancel it.',
        )
      }
      const result = deps.settings.update(patch)
      if (!result.ok) {
        const fields = Object.keys(result.fieldErrors)
        throw new RosterDeskError(
          'validation',
          `Check ${fields.length === 1 ? 'this field' : 'these fields'}: ${fields.join(', ')}.`,
          { fieldErrors: result.fieldErrors as Record<string, string> },
        )
      }
      return settingsView()
    },
    'settings:set-client-secret': async (secret) => {
      await deps.secrets.set('clientSecret', secret)
      return settingsView()
    },

    'sync:start': async () => {
      // Answers once the run is logged; its outcome reaches the renderer only as `sync:finished`.
      const { runId } = await beginAppSync(deps)
      return { runId }
    },
    'sync:cancel': async () => deps.sync.cancel(),
    'sync:get-status': async () => deps.sync.getStatus(),

    'employees:query': async (query) => {
      // A first sort or "Search in" on a column is built off this thread; other replies go out meanwhile.
      await deps.queries.prepare(query)
      return deps.queries.query(query)
    },
    'employees:get': async (uuid) => {
      // After a sync, the new snapshot's index is opened off this thread by whichever call comes first.
      await deps.queries.open()
      return deps.queries.getEmployee(uuid)
    },
    'employees:columns': async () => {
      await deps.queries.open()
      return deps.queries.listColumns()
    },
    'employees:changes': async (kind, offset, limit) => deps.changes.latestPage(kind, offset, limit),

    'changes:history': async () => deps.changes.list(),
    'changes:list': async (runId, kind, offset, limit) => deps.changes.page(runId, kind, offset, limit),
    'changes:export': async (request) => {
      if (deps.exports.isRunning) {
        throw new RosterDeskError('busy', 'An export is already running. Wait for it to finish or cancel it.')
      }
      // A sync the history no longer holds is refused before the save dialog opens.
      const run = deps.changes.run(request.runId)
      const filePath = await choosePath(
        deps.exportMemory.defaultPath(changesExportFileName(new Date(run.endedAt), request.format)),
        request.format,
      )
      if (filePath === undefined) return { status: 'cancelled' }
      const result = await deps.exports.exportChanges({
        request,
        filePath,
        onProgress: (progress) => deps.events.emit('export:progress', progress),
      })
      if (result.status === 'written') deps.exportMemory.remember(filePath)
      return result
    },
    'employees:lookup-service': async (request) => {
      if (deps.auth.getState().status !== 'signed-in') {
        throw new RosterDeskError(
          'not-signed-in',
          'Sign in to look employees up on the payroll service. Your saved employees stay searchable.',
        )
      }
      return deps.lookupService(request)
    },

    'export:start': async (request) => {
      if (deps.exports.isRunning) {
        throw new RosterDeskError('busy', 'An export is already running. Wait for it to finish or cancel it.')
      }
      const filePath = await choosePath(
        deps.exportMemory.defaultPath(deps.defaultExportFileName(request, new Date(deps.clock.now()))),
        request.format,
      )
      if (filePath === undefined) return { status: 'cancelled' }
      const result = await deps.exports.exportToFile({
        request,
        filePath,
        onProgress: (progress) => deps.events.emit('export:progress', progress),
      })
      if (result.status === 'written') deps.exportMemory.remember(filePath)
      return result
    },
    'export:cancel': async () => deps.exports.cancel(),
    'export:show-in-folder': async () => {
      const file = deps.exports.lastExportedFile()
      if (file === undefined) return false
      deps.revealFile(file)
      return true
    },
    'export:print': async (request) => {
      const printPage = deps.printPage
      if (printPage === undefined) {
        throw new RosterDeskError(
          'config',
          'Printing is not available here. Export the view to Excel and print it from there.',
        )
      }
      if (printing) throw new RosterDeskError('busy', 'The print dialog is already open.')
      printing = true
      try {
        const view = await deps.exports.preparePrint(request)
        const outcome = await printPage({ html: view.html, title: view.title }).catch((error: unknown) => {
          throw new RosterDeskError(
            'internal',
            'The page could not be printed. Check the printer, or export the view to Excel and print it from there.',
            { cause: error, detail: error instanceof Error ? error.message : String(error) },
          )
        })
        return outcome === 'printed'
          ? { status: 'printed', rows: view.rows, total: view.total }
          : { status: 'cancelled' }
      } finally {
        printing = false
      }
    },
  }
}
