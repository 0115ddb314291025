import { isOwnNetworkErrorCode, isUnreachableErrorCode } from '../../../shared/ipc-error-codes'
import { useSyncExternalStore } from 'react'

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange)
  window.addEventListener('offline', onChange)
  return () => {
    window.removeEventListener('online', onChange)
    window.removeEventListener('offline', onChange)
  }
}

/** Whether the computer says it has a network connection (navigator.onLine), updated as it changes. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  )
}

/**
 * Why the service cannot be asked now: 'offline', the clerk's own network (the OS says so, or no name resolves);
 * 'service-down', the last sync reached no service (refused, no answer in time, cut).
 */
export type Unreachable = 'offline' | 'service-down'

/**
 * Why the service cannot be asked, from the OS's word and the last sync's error code: "Offline" is the clerk's own
 * network (the OS says so, or no name resolves); a service that does not answer (refused, timed out, cut) is
 * 'service-down', said as that in the sync bar (decision 057).
 */
export function unreachableOf(online: boolean, code: string | undefined): Unreachable | undefined {
  if (!online || isOwnNetworkErrorCode(code)) return 'offline'
  return isUnreachableErrorCode(code) ? 'service-down' : undefined
}
