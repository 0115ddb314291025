import { readFileSync, writeFileSync } from 'node:fs'

/**
 * Loaded with `--import` into a benchmark's child process (the CLI among them, unchanged): when the process exits
 * it writes, to the file named by ROSTERDESK_BENCH_REPORT, how long it ran since it started (performance.now()
 * counts from the process's time origin) and its peak resident memory.
 */

/**
 * The process's resident high-water mark, module loading included. Not `resourceUsage().maxRSS`: on Linux that
 * carries over the parent's resident size from before exec, so every child of a large bench process reported
 * at least the parent's size. The kernel's VmHWM belongs to this process image alone; elsewhere, `sampled`.
 */
export function peakRssBytes(sampled: number): number {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]
    if (kib !== undefined) return Number(kib) * 1024
  } catch {
    // Not Linux: the sampled figure is the best there is.
  }
  return sampled
}

/** What a child reports at exit. */
export interface ProcessReport {
  /** From the process's start to its exit. */
  readonly exitMs: number
  readonly peakRssMb: number
}

const target = process.env['ROSTERDESK_BENCH_REPORT']
if (target !== undefined && target !== '') {
  process.on('exit', () => {
    const report: ProcessReport = {
      exitMs: performance.now(),
      peakRssMb: peakRssBytes(process.memoryUsage.rss()) / 1_048_576,
    }
    writeFileSync(target, JSON.stringify(report))
  })
}
