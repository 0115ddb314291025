import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  BOUNDS_SAVE_DELAY_MS,
  createBoundsSaver,
  DEFAULT_WINDOW_SIZE,
  MIN_WINDOW_SIZE,
  parseWindowBoundsState,
  restoreWindowBounds,
  windowBoundsState,
  windowPlacement,
  type WindowBoundsState,
} from '../../../../../src/main/shell/window-and-startup/window-bounds'

// A laptop (primary, its taskbar below) with a second monitor to its right.
const LAPTOP = { x: 0, y: 0, width: 1920, height: 1040 }
const MONITOR = { x: 1920, y: 0, width: 2560, height: 1400 }
const BOTH = [LAPTOP, MONITOR]

function saved(x: number, y: number, width: number, height: number, maximized = false): WindowBoundsState {
  return { x, y, width, height, maximized }
}

describe('restoring the window where it was', () => {
  it('reopens exactly where it was when that place is still on a display', () => {
    expect(restoreWindowBounds(saved(100, 80, 1300, 850), BOTH)).toEqual(saved(100, 80, 1300, 850))
    expect(restoreWindowBounds(saved(2200, 100, 1600, 1000), BOTH)).toEqual(saved(2200, 100, 1600, 1000))
  })

  it('remembers the maximized state together with the size to restore to', () => {
    expect(restoreWindowBounds(saved(2000, 50, 1400, 900, true), BOTH)).toEqual(
      saved(2000, 50, 1400, 900, true),
    )
  })

  it('centers the window on the primary display when its monitor was unplugged', () => {
    const onMonitor = saved(2200, 100, 1600, 1000, true)
    expect(restoreWindowBounds(onMonitor, [LAPTOP])).toEqual(saved(160, 20, 1600, 1000, true))
  })

  it('shrinks a window too large for the display now under it, keeping it on that display', () => {
    // Sized for the big monitor, then the laptop's resolution (or the monitor) went.
    const large = saved(1000, 0, 2560, 1400)
    expect(restoreWindowBounds(large, [LAPTOP])).toEqual(saved(0, 0, 1920, 1040))
  })

  it('pulls a window hanging over a display edge fully back onto the display it overlaps most', () => {
    // Mostly on the laptop, its right part past the laptop's edge onto the monitor.
    expect(restoreWindowBounds(saved(1200, 500, 1000, 700), BOTH)).toEqual(saved(920, 340, 1000, 700))
    // Dragged up and left beyond the screen: only a corner was still visible.
    expect(restoreWindowBounds(saved(-1200, -700, 1280, 820), [LAPTOP])).toEqual(saved(0, 0, 1280, 820))
    // Mostly on the monitor, its left part overlapping the laptop.
    expect(restoreWindowBounds(saved(1800, 100, 1400, 900), BOTH)).toEqual(saved(1920, 100, 1400, 900))
  })

  it('treats a window that merely touches a display edge as off-screen', () => {
    expect(restoreWindowBounds(saved(1920, 1040, 1000, 700), [LAPTOP])).toEqual(saved(460, 170, 1000, 700))
  })

  it('never reopens below the minimum size', () => {
    const tiny = saved(10, 10, 300, 200)
    expect(restoreWindowBounds(tiny, BOTH)).toEqual(
      saved(10, 10, MIN_WINDOW_SIZE.width, MIN_WINDOW_SIZE.height),
    )
    // A work area smaller than the minimum: the minimum wins and the window starts at the area's corner.
    const small = { x: 0, y: 0, width: 800, height: 560 }
    expect(restoreWindowBounds(saved(50, 50, 1000, 700), [small])).toEqual(
      saved(0, 0, MIN_WINDOW_SIZE.width, MIN_WINDOW_SIZE.height),
    )
  })

  it('rounds fractional bounds (a 125% display reports them) to whole pixels', () => {
    expect(
      restoreWindowBounds({ x: 100.4, y: 80.6, width: 1300.5, height: 850.2, maximized: false }, BOTH),
    ).toEqual(saved(100, 81, 1301, 850))
  })

  it('opens at the default size when nothing usable was saved, or no display is known', () => {
    const broken: unknown[] = [
      undefined,
      null,
      'x=1,y=2',
      42,
      [100, 80, 1300, 850],
      {},
      { x: 100, y: 80, width: 1300, height: 850 },
      { x: 100, y: 80, width: 1300, height: 850, maximized: 'no' },
      { x: '100', y: 80, width: 1300, height: 850, maximized: false },
      { x: 100, y: 80, width: Number.NaN, height: 850, maximized: false },
      { x: 100, y: Number.POSITIVE_INFINITY, width: 1300, height: 850, maximized: false },
      { x: 100, y: 80, width: 0, height: 850, maximized: false },
      { x: 100, y: 80, width: 1300, height: -5, maximized: false },
    ]
    for (const value of broken)
      expect(restoreWindowBounds(value, BOTH), JSON.stringify(value)).toBeUndefined()
    expect(restoreWindowBounds(saved(100, 80, 1300, 850), [])).toBeUndefined()
    expect(
      restoreWindowBounds(saved(100, 80, 1300, 850), [{ x: 0, y: 0, width: 0, height: 0 }]),
    ).toBeUndefined()
  })

  it('ignores displays that report no usable area', () => {
    const ghost = { x: 0, y: 0, width: 0, height: 0 }
    expect(restoreWindowBounds(saved(2200, 100, 1600, 1000), [ghost, MONITOR])).toEqual(
      saved(2200, 100, 1600, 1000),
    )
  })

  it('stores what it restores: a saved state reads back unchanged', () => {
    const state = windowBoundsState({ x: 2200.2, y: 99.7, width: 1600, height: 1000 }, true)
    expect(state).toEqual(saved(2200, 100, 1600, 1000, true))
    expect(parseWindowBoundsState(JSON.parse(JSON.stringify(state)))).toEqual(state)
    expect(restoreWindowBounds(JSON.parse(JSON.stringify(state)), BOTH)).toEqual(state)
  })
})

describe('the options the window is created with', () => {
  it('places a restored window exactly, maximized state aside (the window maximizes once shown)', () => {
    expect(windowPlacement(saved(2200, 100, 1600, 1000, true))).toEqual({
      x: 2200,
      y: 100,
      width: 1600,
      height: 1000,
    })
  })

  it('leaves a first start to the OS at the default size', () => {
    expect(windowPlacement(undefined)).toEqual(DEFAULT_WINDOW_SIZE)
    expect(windowPlacement(undefined)).not.toHaveProperty('x')
  })
})

describe('saving the bounds while the window moves', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  function setup(): { saves: WindowBoundsState[]; errors: unknown[]; current: { state: WindowBoundsState } } {
    return { saves: [], errors: [], current: { state: saved(0, 0, 1000, 700) } }
  }

  it('writes once after the window keeps still, with its state at that moment', () => {
    const { saves, errors, current } = setup()
    const saver = createBoundsSaver({
      read: () => current.state,
      save: (state) => saves.push(state),
      onError: (error) => errors.push(error),
    })
    for (let step = 0; step < 50; step += 1) {
      current.state = saved(step * 10, 0, 1000, 700)
      saver.changed()
      vi.advanceTimersByTime(BOUNDS_SAVE_DELAY_MS / 10)
    }
    expect(saves).toEqual([])
    vi.advanceTimersByTime(BOUNDS_SAVE_DELAY_MS)
    expect(saves).toEqual([saved(490, 0, 1000, 700)])
    vi.advanceTimersByTime(BOUNDS_SAVE_DELAY_MS * 10)
    expect(saves).toHaveLength(1)
    expect(errors).toEqual([])
  })

  it('writes at once on close, and not again when the pending timer would have fired', () => {
    const { saves, current } = setup()
    const saver = createBoundsSaver({
      read: () => current.state,
      save: (s) => saves.push(s),
      onError: () => {},
    })
    saver.changed()
    current.state = saved(5, 5, 1100, 750, true)
    saver.flush()
    expect(saves).toEqual([saved(5, 5, 1100, 750, true)])
    vi.advanceTimersByTime(BOUNDS_SAVE_DELAY_MS * 2)
    expect(saves).toHaveLength(1)
  })

  it('drops a pending write once the window is gone', () => {
    const { saves, current } = setup()
    const saver = createBoundsSaver({
      read: () => current.state,
      save: (s) => saves.push(s),
      onError: () => {},
      delayMs: 50,
    })
    saver.changed()
    saver.cancel()
    vi.advanceTimersByTime(1_000)
    expect(saves).toEqual([])
  })

  it('reports a failing store instead of throwing into Electron’s event loop', () => {
    const errors: unknown[] = []
    const failure = new Error('disk full')
    const saver = createBoundsSaver({
      read: () => saved(0, 0, 1000, 700),
      save: () => {
        throw failure
      },
      onError: (error) => errors.push(error),
    })
    saver.changed()
    expect(() => vi.advanceTimersByTime(BOUNDS_SAVE_DELAY_MS)).not.toThrow()
    expect(() => saver.flush()).not.toThrow()
    expect(errors).toEqual([failure, failure])
  })
})
