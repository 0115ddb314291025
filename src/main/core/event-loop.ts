/** Lets timers, I/O and IPC run before the next synchronous step of a long piece of work. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}
