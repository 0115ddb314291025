import { preloadExcelJs } from '../export/exceljs-loader'
import { coreJobHandlers } from './core-jobs'
import type { CoreJobs } from './core-jobs'
import { forwardingLogger, serveJobs } from './serve-jobs'

// The core worker's entry: built to out/main/core-worker.js (electron.vite.config.ts), run from source with tsx.
serveJobs<CoreJobs>(coreJobHandlers)
// Exports run here: exceljs loads in the background as the worker starts, so the first export does not wait; if
// its internals moved, the warning goes to main's log.
preloadExcelJs(forwardingLogger())
