import { UNREACHABLE_ERROR_CODES, type IpcErrorCode } from '../../../shared/ipc-error-codes'

/** News that the cause of a shown problem may be gone. A sync that completes ends every sync problem anyway. */
export type Recovery = 'signed-in' | 'back-online'

/** Which problems each piece of news ends: the ones whose cause it is. */
const ENDS: Readonly<Record<Recovery, readonly IpcErrorCode[]>> = {
  // "Your sign-in has expired", "Sign in before syncing": over once the clerk is signed in again.
  'signed-in': ['not-signed-in'],
  // The service could not be reached (no connection, no such host, refused, no answer in time, offline): over once
  // the network is back. Only offline and no such host bring the Offline badge (decision 057). A proxy's or a
  // certificate's refusal is not.
  'back-online': UNREACHABLE_ERROR_CODES,
}

/** Whether a problem with `code` is over after `recovery`, so it must not stay on screen. */
export function isResolvedBy(code: IpcErrorCode, recovery: Recovery): boolean {
  return ENDS[recovery].includes(code)
}
