import { ipcMain, type IpcMainInvokeEvent } from 'electron'
import { INVOKE_CHANNELS } from '../../shared/ipc-channels'
import { dispatchInvoke, type InvokeHandlers } from '../core/ipc/dispatch'
import type { Logger } from '../core/log/logger'
import { isTrustedIpcSender } from '../core/shell/window-policy'

export interface TrustedSenders {
  readonly webContentsIds: ReadonlySet<number>
  readonly origins: readonly string[]
}

/**
 * The only place ipcMain.handle is called. Each channel of the contract gets one handler that first checks the
 * sender (Desktop's safeListener idea), then lets dispatchInvoke validate the arguments at run time.
 */
export function registerInvokeHandlers(
  handlers: InvokeHandlers,
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
      return dispatchInvoke(handlers, channel, args, logger)
    })
  }
  return () => {
    for (const channel of INVOKE_CHANNELS) ipcMain.removeHandler(channel)
  }
}
