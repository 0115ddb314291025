import type { RosterDeskApi } from '../shared/ipc-contract'

declare global {
  interface Window {
    /** The preload's bridge to main (src/preload/index.ts); the only way the renderer reaches main. */
    readonly rosterdesk: RosterDeskApi
  }
}

export {}
