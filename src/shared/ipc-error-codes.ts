/**
 * The codes an IpcError may carry. Zod-free, like ipc-channels.ts, so the renderer can check a code it reads from
 * data (a stored run's `errorCode`) without bundling the contract's schemas; `ipc-contract.ts` builds its enum
 * from this list.
 */
export const IPC_ERROR_CODES = [
  'validation',
  'not-signed-in',
  'auth',
  'network',
  'service',
  'busy',
  'cancelled',
  'storage',
  'not-found',
  'config',
  'internal',
  // The machine, not the service: a full disk (free space needed and where) and a damaged cache set aside.
  'disk-full',
  'damaged-cache',
] as const

export type IpcErrorCode = (typeof IPC_ERROR_CODES)[number]

export function isIpcErrorCode(value: unknown): value is IpcErrorCode {
  return typeof value === 'string' && (IPC_ERROR_CODES as readonly string[]).includes(value)
}
