import type { UpdateRestartResult, UpdateState } from '../../../src/shared/update-state'
import type { FakeEvents, FakeHandlers } from './fake-api'

export interface FakeUpdatesOptions {
  /** The updater's state at the start; absent: not set up, as a build without a feed. */
  readonly state?: UpdateState
  /** Why a restart must wait (main's busy answer: a sync, an export or a print); absent: nothing running. */
  readonly busyReason?: string
}

export type FakeUpdateHandlers = Pick<FakeHandlers, 'updates:get-state' | 'updates:check' | 'updates:restart'>

export interface FakeUpdates {
  readonly handlers: FakeUpdateHandlers
  /** Plays main's updater changing state: kept, and sent as `updates:state`. */
  setState(state: UpdateState): void
  setBusyReason(reason: string | undefined): void
  /** Every restart main began (a click on "Restart to update" that was not refused). */
  readonly restarts: number
}

/**
 * Main's updater as the window sees it (src/main/shell/updates/update-controller.ts): a state read and pushed, a
 * check that answers the state, and a restart that is refused while something runs or nothing is ready.
 */
export function createFakeUpdates(events: FakeEvents, options: FakeUpdatesOptions = {}): FakeUpdates {
  let state: UpdateState = options.state ?? { status: 'not-configured' }
  let busyReason = options.busyReason
  let restarts = 0
  return {
    handlers: {
      'updates:get-state': async () => state,
      'updates:check': async () => state,
      'updates:restart': async (): Promise<UpdateRestartResult> => {
        if (state.status !== 'ready') return { status: 'not-ready' }
        if (busyReason !== undefined) return { status: 'busy', reason: busyReason }
        restarts += 1
        return { status: 'restarting' }
      },
    },
    setState(next) {
      state = next
      events.emit('updates:state', next)
    },
    setBusyReason(reason) {
      busyReason = reason
    },
    get restarts() {
      return restarts
    },
  }
}
