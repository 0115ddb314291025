import type { z } from 'zod'
import {
  invokeChannels,
  isInvokeChannel,
  type EventChannel,
  type EventPayload,
  type InvokeChannel,
  type InvokeResult,
  type IpcError,
  type IpcResult,
  type RosterDeskApi,
} from '../../../src/shared/ipc-contract'
import { RosterDeskError, toIpcError } from '../../../src/main/core/errors'

/**
 * The renderer's tests compile in the web project, which sees src/shared and only the few pure files of main's
 * core it lists; these are the same shapes as core's InvokeHandlers / EventSink / dispatchInvoke, rebuilt from the
 * shared contract.
 */
export type FakeHandlers = {
  [C in InvokeChannel]: (...args: z.output<(typeof invokeChannels)[C]['args']>) => Promise<InvokeResult<C>>
}

/** What a fake handler throws to answer with an IpcError, as core's RosterDeskError does. */
export class FakeIpcError extends Error {
  readonly code: IpcError['code']
  readonly fieldErrors: Record<string, string> | undefined
  constructor(code: IpcError['code'], message: string, fieldErrors?: Record<string, string>) {
    super(message)
    this.code = code
    this.fieldErrors = fieldErrors
  }
}

export type EventListener = <C extends EventChannel>(channel: C, payload: EventPayload<C>) => void

export interface FakeEvents {
  emit<C extends EventChannel>(channel: C, payload: EventPayload<C>): void
  subscribe(listener: EventListener): () => void
}

export function createFakeEvents(): FakeEvents {
  const listeners = new Set<EventListener>()
  return {
    emit(channel, payload) {
      for (const listener of [...listeners]) listener(channel, payload)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}

/** Validates arguments against the contract and turns thrown errors into IpcError values, like dispatchInvoke. */
async function dispatch(
  handlers: FakeHandlers,
  channel: unknown,
  args: unknown[],
): Promise<IpcResult<unknown>> {
  if (!isInvokeChannel(channel))
    return { ok: false, error: { code: 'validation', message: 'Unknown request.' } }
  const parsed = invokeChannels[channel].args.safeParse(args)
  if (!parsed.success)
    return { ok: false, error: { code: 'validation', message: 'The request was not valid.' } }
  try {
    const handler = handlers[channel] as (...values: unknown[]) => Promise<unknown>
    return { ok: true, value: await handler(...(parsed.data as unknown[])) }
  } catch (error) {
    // What the fake borrows from main's core (the ViewStore) fails as main's handlers do.
    if (error instanceof RosterDeskError) return { ok: false, error: toIpcError(error) }
    if (error instanceof FakeIpcError) {
      const base = { code: error.code, message: error.message }
      return { ok: false, error: error.fieldErrors ? { ...base, fieldErrors: error.fieldErrors } : base }
    }
    return { ok: false, error: { code: 'internal', message: 'Something went wrong inside RosterDesk.' } }
  }
}

/**
 * A RosterDeskApi over in-process handlers, the way the preload is over ipcMain. A JSON round trip stands in for
 * IPC's structured clone, so nothing is shared by reference between the "two processes".
 */
export function createFakeApi(handlers: FakeHandlers, events: FakeEvents): RosterDeskApi {
  return {
    invoke(channel, ...args) {
      return dispatch(handlers, channel, JSON.parse(JSON.stringify(args)) as unknown[]).then(
        (result) => JSON.parse(JSON.stringify(result)) as IpcResult<InvokeResult<typeof channel>>,
      )
    },
    on(channel, listener) {
      return events.subscribe((emitted, payload) => {
        if ((emitted as EventChannel) === channel) (listener as (value: unknown) => void)(payload)
      })
    },
  }
}
