import { coreJobHandlers } from './core-jobs'
import type { CoreJobs } from './core-jobs'
import { serveJobs } from './serve-jobs'
import { workerCacheKey } from './worker-cache-key'

// The core worker's entry: built to out/main/core-worker.js (electron.vite.config.ts), run from source with tsx.
// exceljs is not loaded at start: the worker ends when idle (worker-host.ts) and most starts are for a build;
// an export loads it while the save dialog is open (the 'load-exceljs' job). The cache key comes with the
// thread's workerData (worker-cache-key.ts).
serveJobs<CoreJobs>(coreJobHandlers(workerCacheKey))
