import type { WebContents } from 'electron'
import type { EventChannel, EventPayload } from '../../../shared/ipc-contract'
import type { EventSink } from '../../core/ipc/dispatch'

/** Main → renderer pushes go through here only, typed by the contract (no raw webContents.send elsewhere). */
export function windowEventSink(getTarget: () => WebContents | undefined): EventSink {
  return {
    emit<C extends EventChannel>(channel: C, payload: EventPayload<C>): void {
      const target = getTarget()
      if (target && !target.isDestroyed()) target.send(channel, payload)
    },
  }
}
