import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** What every bench section receives, and what it gives back for RESULTS.md. */
export interface BenchContext {
  /** Prints progress to the terminal (never into RESULTS.md). */
  readonly log: (line: string) => void
  /** A scratch directory for this section, removed afterwards. */
  readonly dir: string
}

export interface BenchSection {
  /** Short id used by `--only` (e.g. "sync"). */
  readonly id: string
  readonly title: string
  /** Markdown for RESULTS.md (without the section heading). */
  readonly run: (context: BenchContext) => Promise<string>
}

export function scratchDir(id: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `rosterdesk-bench-${id}-`))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Median and 95th percentile (nearest rank) of a list of milliseconds. */
export function percentiles(values: readonly number[]): { median: number; p95: number; max: number } {
  const { median, p95, max } = quantiles(values)
  return { median, p95, max }
}

/** Median, 95th and 99th percentile (nearest rank) of a list of milliseconds. */
export function quantiles(values: readonly number[]): {
  median: number
  p95: number
  p99: number
  max: number
} {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number): number =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0
  return { median: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) ?? 0 }
}

export function ms(value: number): string {
  return value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(value >= 10 ? 1 : 2)} ms`
}

export function rate(rows: number, milliseconds: number): string {
  return `${Math.round((rows / milliseconds) * 1000).toLocaleString('en-US')} rows/s`
}

/** A markdown table from a header row and body rows. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')
}

export function verdict(met: boolean): string {
  return met ? '**met**' : '**NOT met**'
}
