import type { z } from 'zod'
import {
  invokeChannels,
  isInvokeChannel,
  type EventChannel,
  type EventPayload,
  type InvokeChannel,
  type InvokeResult,
  type IpcResult,
} from '../../../shared/ipc-contract'
import { toIpcError } from '../errors'
import { logFailure } from '../log/log-failure'
import { silentLogger, type Logger } from '../log/logger'

/** The arguments a handler receives: already validated and with defaults applied by the contract's schema. */
export type HandlerArgs<C extends InvokeChannel> = z.output<(typeof invokeChannels)[C]['args']>

/** One function per invoke channel. Electron's ipcMain and the browser-test bridge both call these. */
export type InvokeHandlers = {
  [C in InvokeChannel]: (...args: HandlerArgs<C>) => Promise<InvokeResult<C>>
}

/** Main → renderer events. The Electron side sends to the app's window; the test bridge streams them. */
export interface EventSink {
  emit<C extends EventChannel>(channel: C, payload: EventPayload<C>): void
}

/**
 * Validates one request against the contract, runs its handler and turns any failure into an IpcError value.
 * A failure is logged with the error (its detail, causes and stack: an unexpected one is all support gets, the
 * clerk is only told to send the log), but argument values never are: they can hold personal data or, for the
 * client secret, a secret.
 */
export async function dispatchInvoke(
  handlers: InvokeHandlers,
  channel: unknown,
  rawArgs: readonly unknown[],
  logger: Logger = silentLogger,
): Promise<IpcResult<unknown>> {
  if (!isInvokeChannel(channel)) {
    logger.warn(`IPC: refused a request on an unknown channel`)
    return {
      ok: false,
      error: { code: 'validation', message: 'RosterDesk received a request it does not know.' },
    }
  }
  const parsed = invokeChannels[channel].args.safeParse(rawArgs)
  if (!parsed.success) {
    logger.warn(`IPC: refused ${channel}: arguments do not match the contract`)
    return {
      ok: false,
      error: { code: 'validation', message: describeIssues(parsed.error.issues) },
    }
  }
  try {
    const handler = handlers[channel] as (...args: readonly unknown[]) => Promise<unknown>
    const value = await handler(...(parsed.data as readonly unknown[]))
    return { ok: true, value }
  } catch (error) {
    logFailure(logger, `IPC: ${channel} failed`, error)
    return { ok: false, error: toIpcError(error) }
  }
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const first = issues[0]
  if (!first) return 'The request was not valid.'
  const where = first.path.length > 0 ? ` (${first.path.join('.')})` : ''
  return `The request was not valid${where}: ${first.message}`
}
