import { ipcMain, type IpcMainInvokeEvent } from 'electron'
import { INVOKE_CHANNELS } from '../../../shared/ipc-channels'
import type { IpcResult } from '../../../shared/ipc-contract'
import { dispatchInvoke, type InvokeHandlers } from '../../core/ipc/dispatch'
import type { Logger } from '../../core/log/logger'
import { isTrustedIpcSender } from '../window-and-startup/window-security'

export interface TrustedSenders {
  readonly webContentsIds: ReadonlySet<number>
  readonly origins: readonly string[]
}

/** Answers one request whose sender was checked: the core process validates its arguments (dispatchInvoke). */
export type InvokeDispatcher = (channel: string, args: readonly unknown[]) => Promise<IpcResult<unknown>>

/**
 * The channels main answers itself, never sent to the core process: the answer to a proxy's sign-in request,
 * whose credentials the core never sees (decision 037), and the updater's, which lives in main (decision 044).
 * `settings:update` is main's first: a new address is confirmed in main's dialog, then sent on (settings-channels.ts).
 */
export type MainInvokeHandlers = Partial<
  Pick<
    InvokeHandlers,
    | 'network:answer-proxy-sign-in'
    | 'updates:get-state'
    | 'updates:check'
    | 'updates:restart'
    | 'settings:update'
  >
>

/**
 * The only place ipcMain.handle is called. Each channel of the contract gets one handler that first checks the
 * sender (Desktop's safeListener idea), then hands the request to the core process, where dispatchInvoke
 * validates the arguments at run time before any handler sees them; a channel of `mainHandlers` is validated by
 * the same dispatchInvoke and answered here.
 */
export function registerInvokeHandlers(
  dispatch: InvokeDispatcher,
  trusted: TrustedSenders,
  logger: Logger,
  mainHandlers: MainInvokeHandlers = {},
): () => void {
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, ...args: unknown[]) => {
      const frame = event.senderFrame
      const sender = {
        webContentsId: event.sender.id,
        frameUrl: frame?.url,
        isMainFrame: frame !== null && frame !== undefined && frame === event.sender.mainFrame,
      }
      if (!isTrustedIpcSender(sender, trusted.webContentsIds, trusted.origins)) {
        logger.warn(`IPC: refused ${channel} from an untrusted sender`)
        return { ok: false, error: { code: 'validation', message: 'Request refused.' } }
      }
      if (Object.hasOwn(mainHandlers, channel))
        // Only channels of mainHandlers get here, and dispatchInvoke reads no other.
        return dispatchInvoke(mainHandlers as InvokeHandlers, channel, args, logger)
      return dispatch(channel, args)
    })
  }
  return () => {
    for (const channel of INVOKE_CHANNELS) ipcMain.removeHandler(channel)
  }
}
