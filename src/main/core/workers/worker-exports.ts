import type { CacheDatabase } from '../cache/cache-database'
import { cancelledError } from '../errors'
import type { ExportOffload } from '../export/export-service'
import type { ExportFormat } from '../export/export-types'
import type { CoreJobs } from './core-jobs'
import type { WorkerHost } from './worker-host'

/**
 * View and roster exports written by the core worker (export-job.ts). The snapshot current now is the one the
 * file holds, whatever a sync commits meanwhile: this side keeps it open (a lease) until the job ends, so its
 * file stays on disk for the worker's own connection.
 */
export function workerExportOffload(
  host: WorkerHost<CoreJobs>,
  cache: Pick<CacheDatabase, 'currentSnapshot' | 'path'>,
): ExportOffload {
  return async (job, signal) => {
    const reader = cache.currentSnapshot()
    const release = reader?.retain()
    try {
      const result = await host.run(
        'export',
        {
          snapshot:
            reader === null ? null : { path: reader.path, runId: reader.runId, checked: reader.checkedAs },
          catalogPath: cache.path,
          request: job.request,
          filePath: job.filePath,
          context: job.context,
          now: job.now,
          ...(job.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: job.maxRowsPerSheet }),
        },
        { signal, ...(job.onProgress === undefined ? {} : { onProgress: job.onProgress }) },
      )
      if (result.status === 'cancelled') throw cancelledError('The export')
      return { filePath: job.filePath, rows: result.rows }
    } finally {
      release?.()
    }
  }
}

/**
 * Loads exceljs on the core worker ahead of an XLSX export (its save dialog is open meanwhile). The worker ends
 * when idle, so a load when the app started may be gone by the time the clerk exports; this starts it again.
 */
export function workerExportPreparer(host: WorkerHost<CoreJobs>): (format: ExportFormat) => Promise<void> {
  return async (format) => {
    if (format !== 'xlsx') return
    // A failure here is the export's to report, when it runs.
    await host.run('load-exceljs', null).catch(() => undefined)
  }
}
