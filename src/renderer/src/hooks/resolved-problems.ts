import type { IpcErrorCode } from '../../../shared/ipc-error-codes'

/** News that the cause of a shown problem may be gone. A sync that completes ends every sync problem anyway. */
export type Recovery = 'signed-in' | 'back-online'

/** Which problems each piece of news ends: the ones whose cause it is. */
const ENDS: Readonly<Record<Recovery, readonly IpcErrorCode[]>> = {
  // "Your sign-in has expired", "Sign in before syncing": over once the clerk is signed in again.
  'signed-in': ['not-signed-in'],
  // "The payroll service could not be reached" (and the Offline badge it brings): over once the network is back.
  'back-online': ['network'],
}

/** Whether a problem with `code` is over after `recovery`, so it must not stay on screen. */
export function isResolvedBy(code: IpcErrorCode, recovery: Recovery): boolean {
  return ENDS[recovery].includes(code)
}
