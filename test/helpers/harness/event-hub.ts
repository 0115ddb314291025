import type { EventChannel, EventPayload } from '../../../src/shared/ipc-contract'
import type { EventSink } from '../../../src/main/core/ipc/dispatch'

/** Receives every event emitted on the hub, in order. */
export type EventListener = <C extends EventChannel>(channel: C, payload: EventPayload<C>) => void

/** An EventSink whose emissions fan out to subscribers (the harness's SSE streams, a fake preload in tests). */
export interface EventHub extends EventSink {
  subscribe(listener: EventListener): () => void
}

/** Creates an EventHub. Plain TypeScript: the jsdom component tests use it too. */
export function createEventHub(): EventHub {
  const listeners = new Set<EventListener>()
  return {
    emit(channel, payload) {
      for (const listener of [...listeners]) listener(channel, payload)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
  }
}
