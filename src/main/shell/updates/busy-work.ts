import type { InvokeChannelName } from '../../../shared/ipc-channels'
import type { InvokeDispatcher } from '../ipc/register-invoke-handlers'

/** The window's requests that hold work a restart would lose, each answered only once that work is over. */
const HELD_WORK = new Map<InvokeChannelName, string>([
  ['export:start', 'an export is being written'],
  ['changes:export', 'an export is being written'],
  ['export:print', 'a print is being prepared'],
])

/**
 * What main knows runs in the core process, for "Restart to update" (decision 044): a sync (the core's own
 * `sync:get-status`, which counts the scheduler's automatic syncs too), and an export or a print (their requests
 * resolve only when the file is written or the print dialog closed, so one still waiting is one still running).
 */
export class BusyWork {
  readonly #running = new Map<string, number>()

  constructor(private readonly syncRunning: () => Promise<boolean>) {}

  /** The dispatcher with the held requests counted while they wait. */
  track(dispatch: InvokeDispatcher): InvokeDispatcher {
    return async (channel, args) => {
      const what = HELD_WORK.get(channel as InvokeChannelName)
      if (what === undefined) return dispatch(channel, args)
      this.#running.set(what, (this.#running.get(what) ?? 0) + 1)
      try {
        return await dispatch(channel, args)
      } finally {
        const left = (this.#running.get(what) ?? 1) - 1
        if (left === 0) this.#running.delete(what)
        else this.#running.set(what, left)
      }
    }
  }

  /** Why a restart must wait, in the clerk's words, or undefined when nothing runs. */
  async reason(): Promise<string | undefined> {
    const held = [...this.#running.keys()]
    const sync = await this.syncRunning().catch(() => false)
    const what = sync ? ['a sync is running', ...held] : held
    if (what.length === 0) return undefined
    const [first = '', ...rest] = what
    const listed =
      rest.length === 0 ? first : `${[first, ...rest.slice(0, -1)].join(', ')} and ${rest.at(-1)}`
    return `RosterDesk restarts to update once it is done: ${listed}.`
  }
}
