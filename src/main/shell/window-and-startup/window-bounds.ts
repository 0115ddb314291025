/**
 * Where the app window reopens: the size, position and maximized state it had when last moved or closed, checked
 * against the displays connected now. Pure data and timers, so the rules are tested without Electron;
 * `src/main/shell/window.ts` feeds it Electron's window and screen.
 */

export interface Rect {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

/** What is stored: the window's normal (restored) bounds, and whether it was maximized over them. */
export interface WindowBoundsState extends Rect {
  readonly maximized: boolean
}

/** Below this the toolbar and the employee table stop fitting; the window refuses to be made smaller. */
export const MIN_WINDOW_SIZE = { width: 900, height: 600 } as const

/** The first start's size, before anything was saved. */
export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 820 } as const

/** How long the window must keep still before its bounds are written, so a drag is one write, not hundreds. */
export const BOUNDS_SAVE_DELAY_MS = 500

/**
 * Reads a saved value back into bounds the window can open with, or undefined (open at the default size, placed by
 * the OS) when nothing usable was saved. `workAreas` are the displays' work areas (without taskbar and menu bar),
 * the primary display's first.
 *
 * The window goes back on the display it overlaps most, made to fit inside that display's work area. When it
 * overlaps none (its monitor was unplugged, or the resolution shrank), it is centered on the primary display
 * instead, keeping its size as far as that display allows. It is never smaller than MIN_WINDOW_SIZE.
 */
export function restoreWindowBounds(
  saved: unknown,
  workAreas: readonly Rect[],
): WindowBoundsState | undefined {
  const state = parseWindowBoundsState(saved)
  const primary = workAreas.find(isUsableRect)
  if (!state || !primary) return undefined
  const home = displayHolding(state, workAreas.filter(isUsableRect))
  const area = home ?? primary
  const width = Math.max(MIN_WINDOW_SIZE.width, Math.min(state.width, area.width))
  const height = Math.max(MIN_WINDOW_SIZE.height, Math.min(state.height, area.height))
  const x = home ? clamp(state.x, area.x, area.x + area.width - width) : centered(area.x, area.width, width)
  const y = home
    ? clamp(state.y, area.y, area.y + area.height - height)
    : centered(area.y, area.height, height)
  return { x, y, width, height, maximized: state.maximized }
}

/** BrowserWindow's size and position options: the restored bounds, or the default size placed by the OS. */
export function windowPlacement(restored: WindowBoundsState | undefined): Partial<Rect> & {
  readonly width: number
  readonly height: number
} {
  if (!restored) return { ...DEFAULT_WINDOW_SIZE }
  const { x, y, width, height } = restored
  return { x, y, width, height }
}

/** The state to store for a window whose normal bounds and maximized flag are these. */
export function windowBoundsState(normalBounds: Rect, maximized: boolean): WindowBoundsState {
  const { x, y, width, height } = roundRect(normalBounds)
  return { x, y, width, height, maximized }
}

/**
 * Accepts only a stored value this module wrote: four finite numbers and a boolean. Anything else (an older
 * format, a hand-edited file, a missing key) is ignored rather than trusted.
 */
export function parseWindowBoundsState(value: unknown): WindowBoundsState | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { x, y, width, height, maximized } = value as Record<string, unknown>
  if (!isFiniteNumber(x) || !isFiniteNumber(y) || !isFiniteNumber(width) || !isFiniteNumber(height))
    return undefined
  if (width <= 0 || height <= 0 || typeof maximized !== 'boolean') return undefined
  return { ...roundRect({ x, y, width, height }), maximized }
}

export interface BoundsSaver {
  /** The window moved, resized, maximized or was restored: save once it has kept still for the delay. */
  changed(): void
  /** Saves now (the window is closing) and cancels any pending save. */
  flush(): void
  /** Cancels any pending save without saving (the window is gone). */
  cancel(): void
}

export interface BoundsSaverOptions {
  /** The window's state right now; only called while the window exists. */
  readonly read: () => WindowBoundsState
  readonly save: (state: WindowBoundsState) => void
  /** A failed save must not take the app down: the worst outcome is the window opening at its old place. */
  readonly onError: (error: unknown) => void
  readonly delayMs?: number
}

export function createBoundsSaver(options: BoundsSaverOptions): BoundsSaver {
  const delayMs = options.delayMs ?? BOUNDS_SAVE_DELAY_MS
  let timer: ReturnType<typeof setTimeout> | undefined
  const cancel = (): void => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
  }
  const saveNow = (): void => {
    cancel()
    try {
      options.save(options.read())
    } catch (error) {
      options.onError(error)
    }
  }
  return {
    changed() {
      cancel()
      timer = setTimeout(saveNow, delayMs)
    },
    flush: saveNow,
    cancel,
  }
}

/** The display the window overlaps most, or undefined when it overlaps none at all. */
function displayHolding(window: Rect, workAreas: readonly Rect[]): Rect | undefined {
  let best: Rect | undefined
  let bestOverlap = 0
  for (const area of workAreas) {
    const overlap = overlapArea(window, area)
    if (overlap > bestOverlap) {
      best = area
      bestOverlap = overlap
    }
  }
  return best
}

function overlapArea(a: Rect, b: Rect): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return width > 0 && height > 0 ? width * height : 0
}

/** Where max < min (a work area smaller than MIN_WINDOW_SIZE), the window starts at the area's top or left edge. */
function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(value, max))
}

function centered(start: number, available: number, size: number): number {
  return Math.round(start + Math.max(0, available - size) / 2)
}

function roundRect(rect: Rect): Rect {
  return {
    x: Math.round(rect.x),
    y: Math.round(rect.y),
    width: Math.round(rect.width),
    height: Math.round(rect.height),
  }
}

function isUsableRect(rect: Rect): boolean {
  return (
    isFiniteNumber(rect.x) &&
    isFiniteNumber(rect.y) &&
    isFiniteNumber(rect.width) &&
    isFiniteNumber(rect.height) &&
    rect.width > 0 &&
    rect.height > 0
  )
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}
