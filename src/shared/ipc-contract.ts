import { z } from 'zod'
import { IDENTITY_CHOICES } from './source-identity'
import { appInfoSchema } from './domain/app-info'
import { authStateSchema } from './domain/auth'
import {
  changeHistoryEntrySchema,
  changeKindSchema,
  changeListOptionsSchema,
  changeListPageSchema,
} from './domain/changes'
import {
  changesExportRequestSchema,
  copyRowsRequestSchema,
  copyRowsResultSchema,
  exportHistorySchema,
  exportProgressSchema,
  exportRequestSchema,
  exportResultSchema,
  printResultSchema,
} from './domain/export'
import { diagnosticsResultSchema } from './domain/diagnostics'
import { serviceLookupRequestSchema, serviceLookupResultSchema } from './domain/lookup'
import { profileListSchema } from './domain/profiles'
import {
  employeeQuerySchema,
  nameSuggestionRequestSchema,
  nameSuggestionSchema,
  preparingListSchema,
  queryResultSchema,
} from './domain/query'
import { columnInfoSchema, employeeDetailSchema } from './domain/rows'
import { settingsViewSchema } from './domain/settings'
import { syncProgressSchema, syncRunSummarySchema, syncStartedSchema, syncStatusSchema } from './domain/sync'
import { environmentSchema, type SettingsPatch } from './settings-schema'
import {
  connectionReportSchema,
  proxySignInAnswerSchema,
  proxySignInRequestSchema,
} from './connection-report-schema'
import type { EventChannelName, InvokeChannelName } from './ipc-channels'
import { updateRestartResultSchema, updateStateSchema } from './update-state-schema'
import { MENU_COMMANDS } from './shortcuts'
import { IPC_ERROR_CODES } from './ipc-error-codes'
import { NEAR_MISS_MAX_SUGGESTIONS } from './near-miss'
import { savedViewSchema, viewStateSchema } from './view-schema'

/**
 * The one IPC contract. Main registers a handler for every invoke channel, the preload exposes one function per
 * channel, and the browser test bridge implements the same map, so none of them can drift.
 *
 * Directions are separate maps (GitHub Desktop mixes them in one); names are `domain:verb`.
 */

const noArgs = z.tuple([])
const settingsPatchArgSchema = z.custom<SettingsPatch>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  'Settings must be an object of fields.',
)

const profileIdSchema = z.string().min(1).max(20)
/** Checked for length only here; main words the name's problem (profileNameProblem, shared with the form). */
const profileNameArgSchema = z.string().max(200)
/** Likewise for views (viewNameProblem, shared with the views menu). */
const viewNameArgSchema = z.string().max(200)
const viewIdSchema = z.string().min(1).max(20)
/** A profile's saved views, in the menu's order (by name). */
const savedViewsSchema = z.array(savedViewSchema)

export const invokeChannels = {
  'app:get-info': { args: noArgs, result: appInfoSchema },

  'auth:get-state': { args: noArgs, result: authStateSchema },
  /** Opens the system browser; resolves when the callback has been handled, refused, cancelled or timed out. */
  'auth:sign-in': { args: noArgs, result: authStateSchema },
  'auth:cancel-sign-in': { args: noArgs, result: authStateSchema },
  'auth:sign-out': { args: noArgs, result: authStateSchema },

  'settings:get': { args: noArgs, result: settingsViewSchema },
  /**
   * The patch is only checked to be an object here: main applies it over the current settings and checks the
   * result with the settings schema (settings-schema.ts), answering `fieldErrors`, a clerk's message per field.
   */
  /**
   * A change to the environment, service address or tenant of a profile with saved employees is refused
   * ('validation') unless the second argument says how (decision 039): `new-profile` keeps this profile and
   * switches to a new one with the new settings; `set-aside` changes this one and sets its employees aside.
   */
  'settings:update': {
    args: z.tuple([
      settingsPatchArgSchema,
      z.strictObject({ identityChange: z.enum(IDENTITY_CHOICES) }).optional(),
    ]),
    result: settingsViewSchema,
  },
  /** Write-only: the secret goes to the secret store and never comes back. */
  'settings:set-client-secret': { args: z.tuple([z.string().min(1).max(4096)]), result: settingsViewSchema },

  /**
   * Answers at once with the run's id (refused with 'busy' while one is running); how the run ended arrives
   * only as `sync:finished`, whose summary carries the same id.
   */
  'profiles:list': { args: noArgs, result: profileListSchema },
  /**
   * Makes another profile active: main stops a running sync or export, closes this profile's cache and opens
   * that one's, then pushes `profiles:changed` (the renderer reloads everything it shows).
   */
  'profiles:switch': { args: z.tuple([profileIdSchema]), result: profileListSchema },
  /**
   * A new profile with first-run settings in the environment chosen (Demo when none is given, as before the
   * option existed); it does not become active.
   */
  'profiles:create': {
    args: z.tuple([profileNameArgSchema, z.strictObject({ environment: environmentSchema }).optional()]),
    result: profileListSchema,
  },
  /** Puts the profile's set-aside employees back as its saved employees (decision 039); 'not-found' if none. */
  'profiles:restore-set-aside': { args: z.tuple([profileIdSchema]), result: profileListSchema },
  'profiles:rename': { args: z.tuple([profileIdSchema, profileNameArgSchema]), result: profileListSchema },
  /** Not the active profile; removes its settings, saved employees and secrets. */
  'profiles:delete': { args: z.tuple([profileIdSchema]), result: profileListSchema },

  'sync:start': { args: noArgs, result: syncStartedSchema },
  'sync:cancel': { args: noArgs, result: z.boolean() },
  'sync:get-status': { args: noArgs, result: syncStatusSchema },

  'employees:query': { args: z.tuple([employeeQuerySchema]), result: queryResultSchema },
  'employees:get': { args: z.tuple([z.string().min(1).max(100)]), result: employeeDetailSchema.nullable() },
  'employees:columns': { args: noArgs, result: z.array(columnInfoSchema) },
  /** A window of who the last complete sync added, removed or changed: (kind, offset, limit). */
  'employees:changes': {
    args: z.tuple([changeKindSchema, z.int().min(0), z.int().min(1).max(1000)]),
    result: changeListPageSchema,
  },
  /**
   * Searches the payroll service itself, live (one page per column searched), for someone the saved employees
   * lack; nothing it finds is saved. Refused with 'not-signed-in' when signed out.
   */
  'employees:lookup-service': {
    args: z.tuple([serviceLookupRequestSchema]),
    result: serviceLookupResultSchema,
  },
  /**
   * "Did you mean …": the saved names closest to the search's near-missed word (core/query/near-miss.ts), at most
   * NEAR_MISS_MAX_SUGGESTIONS, closest first; empty when no word is a near-miss or the column is not a name.
   */
  'employees:suggest': {
    args: z.tuple([nameSuggestionRequestSchema]),
    result: z.array(nameSuggestionSchema).max(NEAR_MISS_MAX_SUGGESTIONS),
  },

  /** The last 20 complete syncs, newest first, each with its counts and where it read from. */
  'changes:history': { args: noArgs, result: z.array(changeHistoryEntrySchema) },
  /**
   * A window of one sync's added, removed or changed employees: (runId, kind, offset, limit, options), searched and
   * sorted as `options` says; the total counts those the search finds.
   */
  'changes:list': {
    args: z.tuple([
      z.int().min(1),
      changeKindSchema,
      z.int().min(0),
      z.int().min(1).max(1000),
      changeListOptionsSchema.optional(),
    ]),
    result: changeListPageSchema,
  },
  /**
   * Asks main for a save location (native dialog), then writes one sync's changes; progress, cancel and "show in
   * folder" are the export channels', and one export runs at a time whichever started it.
   */
  'changes:export': { args: z.tuple([changesExportRequestSchema]), result: exportResultSchema },

  /** Asks main for a save location (native dialog), then writes the file. */
  'export:start': { args: z.tuple([exportRequestSchema]), result: exportResultSchema },
  'export:cancel': { args: noArgs, result: z.boolean() },
  /** Reveals the last file this session exported; takes no path so the renderer cannot name one. */
  'export:show-in-folder': { args: noArgs, result: z.boolean() },
  /**
   * Prints what export:start would write (its format is not used) as a generated page, through the system print
   * dialog; resolves when the dialog closes. At most PRINT_MAX_ROWS rows (the page says when it is cut). The
   * page's numbers and dates follow `locale`, the regional formats the screen shows (shared/locale-format.ts), and
   * its amounts `currency`, the profile's currency setting, where a row names none (shared/money.ts).
   */
  'export:print': {
    args: z.tuple([
      exportRequestSchema,
      z
        .strictObject({
          locale: z.string().min(1).max(100),
          currency: z.optional(z.string().regex(/^[A-Z]{3}$/)),
        })
        .optional(),
    ]),
    result: printResultSchema,
  },
  /**
   * Copies chosen employees' values (copyRowsRequestSchema): main reads them from the saved employees and writes
   * the system clipboard itself, tab-separated text and an HTML table in one write; a copy of more than one row is
   * noted in the export record. Answers how many rows and columns the clipboard got.
   */
  'export:copy-rows': { args: z.tuple([copyRowsRequestSchema]), result: copyRowsResultSchema },
  /** Help → Export history: every entry of the export record (all profiles'), newest first; no employee data. */
  'export:history': { args: noArgs, result: exportHistorySchema },

  /**
   * Help → Save diagnostics…: asks main for a save location (native dialog, "RosterDesk diagnostics <date>.zip"),
   * then writes the zip for IT (core/diagnostics/); nothing personal, no secret.
   */
  'diagnostics:save': { args: noArgs, result: diagnosticsResultSchema },
  /** Reveals the last diagnostics file this session wrote; takes no path so the renderer cannot name one. */
  'diagnostics:show-in-folder': { args: noArgs, result: z.boolean() },

  /** The active profile's saved views (view-schema.ts), by name. */
  'views:list': { args: noArgs, result: savedViewsSchema },
  /**
   * Saves a view under a name in the active profile: (name, state, replace). A name in use (ignoring case) is
   * refused with 'validation' unless `replace` is true, so the menu can ask the clerk first.
   */
  'views:save': {
    args: z.tuple([viewNameArgSchema, viewStateSchema, z.boolean()]),
    result: savedViewsSchema,
  },
  'views:rename': { args: z.tuple([viewIdSchema, viewNameArgSchema]), result: savedViewsSchema },
  'views:delete': { args: z.tuple([viewIdSchema]), result: savedViewsSchema },
  /**
   * The active profile's last view on screen (search, filters, sort, columns; null when none was kept), with
   * that profile's id, which `views:set-current` names so a save still on its way after a switch lands where it
   * belongs.
   */
  'views:get-current': {
    args: noArgs,
    result: z.strictObject({ profileId: z.string(), state: z.nullable(viewStateSchema) }),
  },
  /** Keeps a profile's view on screen (the renderer sends it debounced); false when that profile is gone. */
  'views:set-current': { args: z.tuple([profileIdSchema, viewStateSchema]), result: z.boolean() },

  /**
   * "Test connection": the active profile's saved network settings and address tried step by step through
   * Electron's network stack (connection-report.ts); answers the report even when a step fails.
   */
  'network:check': { args: noArgs, result: connectionReportSchema },
  /**
   * Asks main for a PEM file (native open dialog), which main checks is a local file holding at least one
   * certificate (read once) and keeps as the profile's extra trusted certificates; the settings unchanged when
   * the dialog is cancelled. The only way to set the file: `settings:update` refuses it (issue 31, point 2).
   */
  'network:choose-certificates': { args: noArgs, result: settingsViewSchema },
  /** "Remove": the profile trusts no extra certificates any more (the machine policy's file stays in force). */
  'network:remove-certificates': { args: noArgs, result: settingsViewSchema },
  /** Deletes the proxy credentials remembered for one proxy (host:port, as `rememberedProxies` lists it). */
  'network:forget-proxy-password': {
    args: z.tuple([z.string().min(1).max(300)]),
    result: settingsViewSchema,
  },
  /**
   * The answer to a `network:proxy-sign-in` (its id): credentials, or null to cancel. Handled by main, which
   * holds the challenge; false when that challenge is no longer waiting.
   */
  'network:answer-proxy-sign-in': {
    args: z.tuple([z.string().min(1).max(40), proxySignInAnswerSchema]),
    result: z.boolean(),
  },

  /** The app's updater (issue 25), answered by main: its state, as Help → About and the banner show it. */
  'updates:get-state': { args: noArgs, result: updateStateSchema },
  /** Help → "Check for updates…": checks now (a download follows in the background); the state after the check. */
  'updates:check': { args: noArgs, result: updateStateSchema },
  /** "Restart to update": quits and installs the downloaded update, or says why not (a sync, export or print). */
  'updates:restart': { args: noArgs, result: updateRestartResultSchema },
} as const

export const eventChannels = {
  'auth:changed': authStateSchema,
  'sync:progress': syncProgressSchema,
  'sync:finished': syncRunSummarySchema,
  'export:progress': exportProgressSchema,
  /** Another profile became active (or the list changed): everything shown must be read again. */
  'profiles:changed': profileListSchema,
  /** A menu item (Export…, Sync, Settings…, Keyboard shortcuts, Save diagnostics…, Export history) the window carries out. */
  'app:command': z.enum(MENU_COMMANDS),
  /** What the query engine is preparing on the core worker (a first sort or "Search in", an index): [] when done. */
  'query:preparing': preparingListSchema,
  /** A proxy asks for credentials (main's `login` event for a proxy challenge): the window asks the clerk. */
  'network:proxy-sign-in': proxySignInRequestSchema,
  /** The updater's state changed (checking, downloading, ready to restart, failed…). */
  'updates:state': updateStateSchema,
} as const

export type InvokeChannel = keyof typeof invokeChannels
export type EventChannel = keyof typeof eventChannels
export type InvokeArgs<C extends InvokeChannel> = z.input<(typeof invokeChannels)[C]['args']>
export type InvokeResult<C extends InvokeChannel> = z.output<(typeof invokeChannels)[C]['result']>
export type EventPayload<C extends EventChannel> = z.output<(typeof eventChannels)[C]>

export { IPC_ERROR_CODES, isIpcErrorCode, type IpcErrorCode } from './ipc-error-codes'
export const ipcErrorSchema = z.strictObject({
  code: z.enum(IPC_ERROR_CODES),
  /** Worded for a payroll clerk: what happened and what to do next. */
  message: z.string(),
  /** For 'validation' errors of a form: a message per field (e.g. `pageSize`, `baseUrls.staging`). */
  fieldErrors: z.record(z.string(), z.string()).optional(),
})
export type IpcError = z.infer<typeof ipcErrorSchema>

/** Errors cross IPC as values: Electron flattens thrown errors into an unhelpful string. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError }

export function ipcResultSchema<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion('ok', [
    z.strictObject({ ok: z.literal(true), value }),
    z.strictObject({ ok: z.literal(false), error: ipcErrorSchema }),
  ])
}

/**
 * The API the preload exposes as `window.rosterdesk`: one function per invoke channel plus one subscription
 * per event channel. Derived from the contract so every implementation has exactly this shape.
 */
export type RosterDeskApi = {
  invoke<C extends InvokeChannel>(channel: C, ...args: InvokeArgs<C>): Promise<IpcResult<InvokeResult<C>>>
  on<C extends EventChannel>(channel: C, listener: (payload: EventPayload<C>) => void): () => void
}

// Compile-time proof that the zod-free name lists and the schema maps agree, in both directions.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never
export const channelNamesAgree: [
  Same<InvokeChannel, InvokeChannelName>,
  Same<EventChannel, EventChannelName>,
] = [true, true]

export { EVENT_CHANNELS, INVOKE_CHANNELS, isEventChannel, isInvokeChannel } from './ipc-channels'
