/**
 * The persistence the settings need: electron-store in the app (its `get`/`set` match structurally), a map in
 * tests. Synchronous because electron-store is, which lets `get()` answer without awaiting.
 */
export interface KeyValueBackend {
  get(key: string): unknown
  set(key: string, value: unknown): void
  /** The file behind it, when there is one: a failed write names its folder. */
  readonly location?: string
}

/** A KeyValueBackend over a Map, for tests and for the CLI, which keeps no settings between runs. */
export class MemoryKeyValueBackend implements KeyValueBackend {
  readonly values = new Map<string, unknown>()

  get(key: string): unknown {
    return structuredClone(this.values.get(key))
  }

  set(key: string, value: unknown): void {
    this.values.set(key, structuredClone(value))
  }
}

/**
 * Reads through to `backend`, and keeps what is written in memory: for a reader that must never write the file
 * behind it (the shell reads the settings the core process owns, migrations included, without saving them).
 */
export class ReadThroughBackend implements KeyValueBackend {
  readonly #written = new MemoryKeyValueBackend()

  constructor(private readonly backend: KeyValueBackend) {}

  get(key: string): unknown {
    return this.#written.values.has(key) ? this.#written.get(key) : this.backend.get(key)
  }

  set(key: string, value: unknown): void {
    this.#written.set(key, value)
  }
}
