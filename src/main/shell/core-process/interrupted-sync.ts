import type { SyncRunSummary } from '../../../shared/domain/sync'

/**
 * The summary of a sync run whose core process stopped during it (RemoteAppCore ends it for the window, which
 * would otherwise wait for it forever): failed, nothing changed, what to do, and where the log is (`logPlace`).
 */
export function interruptedSync(
  run: { readonly runId: number; readonly startedAt: number },
  endedAt: number,
  logPlace: string,
): SyncRunSummary {
  return {
    id: run.runId,
    status: 'failed',
    startedAt: new Date(run.startedAt).toISOString(),
    endedAt: new Date(endedAt).toISOString(),
    totalCount: 0,
    stored: 0,
    pages: 0,
    requests: 0,
    durationMs: Math.max(0, endedAt - run.startedAt),
    error: `The sync stopped: RosterDesk’s data engine stopped unexpectedly during it. Nothing was changed. Try again; if it happens again, send the log to support: ${logPlace}`,
    errorCode: 'internal',
  }
}
