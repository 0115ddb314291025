import { RosterDeskError } from '../errors'

/** Causes nested deeper than this are cut: a cycle or a runaway wrapper would otherwise fill the log. */
const MAX_DEPTH = 6
/** An AggregateError (fetch's "connect" failure over IPv4 and IPv6, say) lists at most this many of its errors. */
const MAX_AGGREGATED = 5

/**
 * What support needs from a thrown value, as lines: its name, code and message, a RosterDeskError's `detail`, the
 * stack frames (unless `frames` is false: a terminal shows none), then each cause (and each error an
 * AggregateError holds) the same way. A cause's frames that
 * repeat the end of the enclosing error's are counted rather than shown again, as Java does. A value that is not
 * an Error is named by its type only, unless it is a primitive: an object of unknown shape could hold anything.
 */
export function describeError(error: unknown, frames = true): string[] {
  const lines: string[] = []
  describeInto(lines, error, { indent: '', label: '', depth: 0, seen: new Set(), outerFrames: [], frames })
  return lines
}

interface Place {
  readonly indent: string
  readonly label: string
  readonly depth: number
  readonly seen: Set<unknown>
  /** The enclosing error's frames. */
  readonly outerFrames: readonly string[]
  /** Whether stack frames are shown. */
  readonly frames: boolean
}

function describeInto(lines: string[], value: unknown, place: Place): void {
  const { indent, label, depth, seen, outerFrames, frames: showFrames } = place
  if (!(value instanceof Error)) {
    lines.push(`${indent}${label}${describeNonError(value)}`)
    return
  }
  if (seen.has(value) || depth >= MAX_DEPTH) {
    lines.push(`${indent}${label}${value.name} (not shown again)`)
    return
  }
  seen.add(value)
  lines.push(`${indent}${label}${heading(value)}`)
  if (value instanceof RosterDeskError && value.detail !== undefined) {
    lines.push(`${indent}  detail: ${oneLine(value.detail)}`)
  }
  const frames = showFrames ? stackFrames(value) : []
  const shared = sharedTail(frames, outerFrames)
  for (const frame of frames.slice(0, frames.length - shared)) lines.push(`${indent}  ${frame}`)
  if (shared > 0) lines.push(`${indent}  ... ${shared} more`)
  const inner = { depth: depth + 1, seen, outerFrames: frames, frames: showFrames }
  if (value instanceof AggregateError) {
    const errors: unknown[] = Array.isArray(value.errors) ? (value.errors as unknown[]) : []
    for (const each of errors.slice(0, MAX_AGGREGATED)) {
      describeInto(lines, each, { ...inner, indent: `${indent}  `, label: 'including: ' })
    }
    if (errors.length > MAX_AGGREGATED) lines.push(`${indent}  and ${errors.length - MAX_AGGREGATED} more`)
  }
  if (value.cause !== undefined) {
    describeInto(lines, value.cause, { ...inner, indent, label: 'caused by: ' })
  }
}

function heading(error: Error): string {
  const code =
    error instanceof RosterDeskError
      ? error.code
      : 'code' in error && typeof error.code === 'string'
        ? error.code
        : undefined
  const name = code === undefined ? error.name : `${error.name} [${code}]`
  return error.message === '' ? name : `${name}: ${oneLine(error.message)}`
}

/** V8's frames ("at fn (file:line:col)"); the stack's first lines repeat the message, already in the heading. */
function stackFrames(error: Error): string[] {
  return (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .map((line) => line.trim())
}

/** How many frames at the end of `frames` equal the end of `outer`. */
function sharedTail(frames: readonly string[], outer: readonly string[]): number {
  let shared = 0
  while (
    shared < frames.length &&
    shared < outer.length &&
    frames[frames.length - 1 - shared] === outer[outer.length - 1 - shared]
  ) {
    shared++
  }
  return shared
}

function describeNonError(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return `a thrown string: ${oneLine(value)}`
    case 'number':
    case 'boolean':
    case 'bigint':
      return `a thrown ${typeof value}: ${String(value)}`
    case 'undefined':
      return 'a thrown undefined'
    default:
      return value === null ? 'a thrown null' : `a thrown ${typeof value} that is not an Error`
  }
}

/** Entries stay one logical line per fact, so a multi-line message cannot pass for another entry. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ')
}
