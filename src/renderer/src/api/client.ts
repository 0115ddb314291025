import type {
  EventChannel,
  EventPayload,
  InvokeArgs,
  InvokeChannel,
  InvokeResult,
  IpcError,
  RosterDeskApi,
} from '../../../shared/ipc-contract'

/** A failed request, carrying the contract's code and the message main worded for the clerk. */
export class ClientError extends Error {
  readonly code: IpcError['code']
  /** Main's message per form field, for a refused settings change. */
  readonly fieldErrors: Readonly<Record<string, string>>

  constructor(error: IpcError) {
    super(error.message)
    this.name = 'ClientError'
    this.code = error.code
    this.fieldErrors = error.fieldErrors ?? {}
  }
}

/** The typed face of `window.rosterdesk`: results come back as values and failures are thrown as ClientError. */
export interface RosterDeskClient {
  call<C extends InvokeChannel>(channel: C, ...args: InvokeArgs<C>): Promise<InvokeResult<C>>
  on<C extends EventChannel>(channel: C, listener: (payload: EventPayload<C>) => void): () => void
}

const UNREACHABLE: IpcError = {
  code: 'internal',
  message: 'RosterDesk could not reach its background process. Close RosterDesk and start it again.',
}

/** Wraps the preload API so components deal in values and one error type instead of IpcResult envelopes. */
export function createClient(api: RosterDeskApi): RosterDeskClient {
  return {
    async call(channel, ...args) {
      let result: Awaited<ReturnType<typeof api.invoke<typeof channel>>>
      try {
        result = await api.invoke(channel, ...args)
      } catch {
        // The bridge itself failed (main gone, channel closed): not something main worded, so say it plainly.
        throw new ClientError(UNREACHABLE)
      }
      if (result.ok) return result.value
      throw new ClientError(result.error)
    },
    on(channel, listener) {
      return api.on(channel, listener)
    },
  }
}

/** The clerk-readable message of anything a call can throw. */
export function errorMessage(error: unknown): string {
  if (error instanceof ClientError) return error.message
  return UNREACHABLE.message
}

/** The contract code of a failure, or 'internal' for anything that did not come from main. */
export function errorCode(error: unknown): IpcError['code'] {
  return error instanceof ClientError ? error.code : 'internal'
}
