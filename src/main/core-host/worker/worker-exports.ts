import type { CacheDatabase } from '../../core/cache/cache-database'
import { cancelledError } from '../../core/errors'
import type { ChangeEntry, ChangeKind } from '../../../shared/domain/changes'
import type { ExportRunner } from '../../core/export/export-runner'
import type { CoreJobs } from './core-jobs'
import type { JobSnapshot } from './export-job'
import type { WorkerHost } from './worker-host'

/**
 * Runs `use` with the snapshot current now, as a job's input names it; this side keeps it open (a lease) until
 * `use` settles, so its file stays on disk for the worker's own connection whatever a sync commits meanwhile.
 */
async function withCurrentSnapshot<T>(
  cache: Pick<CacheDatabase, 'currentSnapshot'>,
  use: (snapshot: JobSnapshot | null) => Promise<T>,
): Promise<T> {
  const reader = cache.currentSnapshot()
  const release = reader?.retain()
  try {
    return await use(
      reader === null ? null : { path: reader.path, runId: reader.runId, checked: reader.checkedAs },
    )
  } finally {
    release?.()
  }
}

/**
 * ExportService's runner in the app: every export and printed page is a job on the core worker, which calls the
 * inline runner's functions there (export-job.ts, changes-export-job.ts); this thread only sends the job's plain
 * data, keeps its snapshot, answers its requests for change entries and relays its progress.
 */
export function workerExportRunner(
  host: WorkerHost<CoreJobs>,
  cache: Pick<CacheDatabase, 'currentSnapshot' | 'path'>,
): ExportRunner {
  return {
    writeView: writeViewOnWorker(host, cache),
    writeChanges: writeChangesOnWorker(host),
    printView: printViewOnWorker(host, cache),
    prepare: prepareOnWorker(host),
  }
}

/** View and roster exports written by the core worker (export-job.ts), from the snapshot current as they begin. */
function writeViewOnWorker(
  host: WorkerHost<CoreJobs>,
  cache: Pick<CacheDatabase, 'currentSnapshot' | 'path'>,
): ExportRunner['writeView'] {
  return (job, signal) =>
    withCurrentSnapshot(cache, async (snapshot) => {
      const result = await host.run(
        'export',
        {
          snapshot,
          catalogPath: cache.path,
          request: job.request,
          filePath: job.filePath,
          context: job.context,
          now: job.now,
          ...(job.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: job.maxRowsPerSheet }),
          ...(job.rules === undefined ? {} : { rules: job.rules }),
        },
        { signal, ...(job.onProgress === undefined ? {} : { onProgress: job.onProgress }) },
      )
      if (result.status === 'cancelled') throw cancelledError('The export')
      return { filePath: job.filePath, rows: result.rows }
    })
}

/** The page "Print…" prints, built by the core worker (export-job.ts) from the snapshot current as it begins. */
function printViewOnWorker(
  host: WorkerHost<CoreJobs>,
  cache: Pick<CacheDatabase, 'currentSnapshot' | 'path'>,
): ExportRunner['printView'] {
  return (job) =>
    withCurrentSnapshot(cache, (snapshot) =>
      host.run('print-view', {
        snapshot,
        catalogPath: cache.path,
        request: job.request,
        context: job.context,
        now: job.now,
        ...(job.maxRows === undefined ? {} : { maxRows: job.maxRows }),
        ...(job.policyMaxRows === undefined ? {} : { policyMaxRows: job.policyMaxRows }),
        ...(job.locale === undefined ? {} : { locale: job.locale }),
        ...(job.currency === undefined ? {} : { currency: job.currency }),
      }),
    )
}

/**
 * "Export changes…" written by the core worker (changes-export-job.ts): this thread keeps the entries it opened
 * (the change log, or the snapshot's own lists) and answers the job's requests for them a batch at a time, so
 * loading exceljs and writing the file happen there.
 */
function writeChangesOnWorker(host: WorkerHost<CoreJobs>): ExportRunner['writeChanges'] {
  return async (job, signal) => {
    type Entries = Iterator<ChangeEntry[]> | AsyncIterator<ChangeEntry[]>
    const reading = new Map<ChangeKind, Entries>()
    const answering = new Set<Promise<unknown>>()
    const nextBatch = async (kind: ChangeKind, batchSize: number): Promise<ChangeEntry[] | null> => {
      let entries = reading.get(kind)
      if (entries === undefined) {
        const batches = job.source.batches(kind, batchSize)
        entries =
          Symbol.asyncIterator in batches ? batches[Symbol.asyncIterator]() : batches[Symbol.iterator]()
        reading.set(kind, entries)
      }
      const next = await entries.next()
      if (next.done !== true) return next.value
      // Read through: asked again, the kind is read from its start, as the writer on this thread would.
      reading.delete(kind)
      return null
    }
    try {
      const result = await host.run(
        'export-changes',
        {
          described: job.described,
          counts: job.source.counts,
          ...(job.source.numberColumn === undefined ? {} : { numberColumn: job.source.numberColumn }),
          format: job.format,
          filePath: job.filePath,
          about: job.about,
          now: job.now,
          ...(job.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: job.maxRowsPerSheet }),
          ...(job.rules === undefined ? {} : { rules: job.rules }),
        },
        {
          signal,
          ...(job.onProgress === undefined ? {} : { onProgress: job.onProgress }),
          calls: {
            'change-batch': async ({ kind, batchSize }) => {
              const answer = nextBatch(kind, batchSize)
              answering.add(answer)
              try {
                return { value: await answer }
              } finally {
                answering.delete(answer)
              }
            },
          },
        },
      )
      if (result.status === 'cancelled') throw cancelledError('The export')
      return { filePath: job.filePath, rows: result.rows }
    } finally {
      // ExportService closes the source once this settles: no batch may still be being read, and every reading
      // is ended (a generator's own clean-up runs).
      await Promise.allSettled([...answering])
      await Promise.allSettled([...reading.values()].map((entries) => entries.return?.()))
    }
  }
}

/**
 * Loads exceljs on the core worker ahead of an XLSX export and keeps the worker from ending for idleness until
 * the returned function is called (when the save dialog closes): the worker ends when idle, so a load when the
 * app started may be gone by the time the clerk exports, and one made as the dialog opened would be gone too if
 * the clerk took longer than the idle time to choose a file. Never fails: a failed load is the export's to report.
 */
function prepareOnWorker(host: WorkerHost<CoreJobs>): ExportRunner['prepare'] {
  return (format) => {
    if (format !== 'xlsx') return () => undefined
    const release = host.hold()
    try {
      host.run('load-exceljs', null).catch(() => undefined)
    } catch {
      // A worker that cannot even start: the export will say so.
    }
    return release
  }
}
