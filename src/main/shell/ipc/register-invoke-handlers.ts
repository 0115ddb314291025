import { ipcMain, type IpcMainInvokeEvent } from 'electron'
import { INVOKE_CHANNELS } from '../../../shared/ipc-channels'
import type { IpcResult } from '../../../shared/ipc-contract'
import type { Logger } from '../../core/log/logger'
import { isTrustedIpcSender } from '../policy/window-policy'

export interface TrustedSenders {
  readonly webContentsIds: ReadonlySet<number>
  readonly origins: readonly string[]
}

/** Answers one request whose sender was checked: the core process validates its arguments (dispatchInvoke). */
export type InvokeDispatcher = (channel: string, args: readonly unknown[]) => Promise<IpcResult<unknown>>

/**
 * The only place ipcMain.handle is called. Each channel of the contract gets one handler that first checks the
 * sender (Desktop's safeListener idea), then hands the request to the core process, where dispatchInvoke
 * validates the arguments at run time before any handler sees them.
 */
export function registerInvokeHandlers(
  dispatch: InvokeDispatcher,
  trusted: TrustedSenders,
  logger: Logger,
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
      return dispatch(channel, args)
    })
  }
  return () => {
    for (const channel of INVOKE_CHANNELS) ipcMain.removeHandler(channel)
  }
}
