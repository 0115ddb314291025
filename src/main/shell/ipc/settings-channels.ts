import { dialog, type BrowserWindow } from 'electron'
import { RosterDeskError } from '../../core/errors'
import type { Logger } from '../../core/log/logger'
import { destinationChanges, type DestinationChange } from '../../core/settings/network-destinations'
import type { SettingsView } from '../../../shared/domain/settings'
import type { IpcResult } from '../../../shared/ipc-contract'
import { applySettingsPatch } from '../../../shared/settings-schema'
import type { InvokeDispatcher, MainInvokeHandlers } from './register-invoke-handlers'

/**
 * Asks the clerk, in main's own dialog over the window, whether requests may go to these new hosts: true only
 * when they confirm (settings-channels.ts words it, `confirmationOf`).
 */
export type ConfirmDestinations = (changes: readonly DestinationChange[]) => Promise<boolean>

/** The words of main's confirmation: the new hosts named, and the buttons ("Change" first, "Cancel" the default). */
export function confirmationOf(changes: readonly DestinationChange[]): {
  readonly message: string
  readonly detail: string
  readonly buttons: readonly [string, string]
} {
  const named = changes.map(({ kind, host }) =>
    kind === 'service'
      ? `the payroll service at ${host}`
      : kind === 'proxy'
        ? `the proxy ${host}`
        : `the PAC file at ${host}`,
  )
  const list = named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`
  return {
    message: `Send RosterDesk’s requests to ${list}?`,
    detail:
      'Your sign-in and your employees’ data will go there. Change this only when your IT team asked you to; ' +
      'if you did not make this change yourself, choose Cancel.',
    buttons: ['Change', 'Cancel'],
  }
}

/** The refusal when the clerk did not confirm: nothing was saved. */
export const DESTINATION_NOT_CONFIRMED = 'Not saved: you did not confirm the new address.'

/**
 * The `settings:*` channel main answers itself (issue 31, point 2): `settings:update` from the window. A change of
 * the service address in force, the proxy or the PAC address (`destinationChanges`, over the settings the core
 * holds now) is sent to the core only once the clerk confirmed it in main's own dialog, which a compromised page
 * can neither draw nor answer; any other change goes through as it is. One update at a time, so each is judged
 * against the settings it changes. A change confirmed and then refused by the core for want of an identity
 * choice (decision 039) is not asked again when the window sends it back with that choice.
 */
export function createSettingsChannels(options: {
  readonly dispatch: InvokeDispatcher
  readonly confirm: ConfirmDestinations
  readonly logger: Logger
}): MainInvokeHandlers {
  const { dispatch, confirm, logger } = options
  let queue: Promise<unknown> = Promise.resolve()
  /** The destinations last confirmed and not yet saved. */
  let confirmed: string | undefined
  const update = async (...args: Parameters<NonNullable<MainInvokeHandlers['settings:update']>>) => {
    const [patch] = args
    const current = valueOf(await dispatch('settings:get', [])) as SettingsView
    const next = applySettingsPatch(patch, current.settings)
    const changes = next.ok ? destinationChanges(current.settings, next.settings) : []
    const key = JSON.stringify(changes)
    if (changes.length > 0 && key !== confirmed) {
      logger.info(`Settings: asking the clerk to confirm ${changes.map((change) => change.kind).join(', ')}`)
      if (!(await confirm(changes))) {
        confirmed = undefined
        logger.info('Settings: the clerk did not confirm the new address; nothing saved')
        throw new RosterDeskError('cancelled', DESTINATION_NOT_CONFIRMED)
      }
      confirmed = key
    }
    // The contract's optional last argument is left out, never sent as undefined.
    const result = await dispatch('settings:update', args[1] === undefined ? [patch] : args)
    if (result.ok) confirmed = undefined
    return valueOf(result) as SettingsView
  }
  return {
    'settings:update': (...args) => {
      const run = queue.then(() => update(...args))
      queue = run.catch(() => undefined)
      return run
    },
  }
}

/** An IpcResult's value, or its error thrown as the RosterDeskError it was (dispatchInvoke turns it back). */
function valueOf(result: IpcResult<unknown>): unknown {
  if (result.ok) return result.value
  const { code, message, fieldErrors } = result.error
  throw new RosterDeskError(code, message, fieldErrors === undefined ? {} : { fieldErrors })
}

/**
 * The confirmation as main shows it: `dialog.showMessageBox` on the window (modal to it), "Cancel" the default and
 * what Esc answers; confirmed only by "Change". No window (it closed meanwhile): not confirmed.
 */
export function confirmInDialog(window: () => BrowserWindow | undefined): ConfirmDestinations {
  return async (changes) => {
    const owner = window()
    if (owner === undefined || owner.isDestroyed()) return false
    const { message, detail, buttons } = confirmationOf(changes)
    const { response } = await dialog.showMessageBox(owner, {
      type: 'warning',
      title: 'Confirm the new address',
      message,
      detail,
      buttons: [...buttons],
      defaultId: 1,
      cancelId: 1,
      noLink: true,
    })
    return response === 0
  }
}
