import { EmployeeGenerator, fixtureFields } from './data'
import type { EmployeeRow, FixtureEmployee } from './data'

/** How far past the newly inserted rows churn looks for rows to remove: "early positions". */
const REMOVAL_WINDOW_MIN = 40

/**
 * The live employee set: which generated employees exist, in the service's default order. Until churn
 * happens the order is simply index 0..size-1 and nothing is stored; afterwards it is one Int32Array.
 */
export class Dataset {
  readonly generator: EmployeeGenerator
  private order: Int32Array | null = null
  private length: number
  private nextId: number
  /** Bumped on every mutation; cached selections and sort orders are keyed on it. */
  private currentVersion = 0

  constructor(seed: number, size: number, hostileNames = false, fixtures: readonly FixtureEmployee[] = []) {
    this.generator = new EmployeeGenerator(seed, size, hostileNames, fixtureFields(fixtures, size))
    this.length = size
    this.nextId = size
  }

  get count(): number {
    return this.length
  }

  get version(): number {
    return this.currentVersion
  }

  /** Employee index at a position of the default order. */
  idAt(position: number): number {
    if (this.order === null) return position
    const id = this.order[position]
    if (id === undefined) throw new RangeError(`position ${position} is outside the dataset`)
    return id
  }

  /** The default order as an array (materialised once per version; callers must not mutate it). */
  ids(): Int32Array {
    if (this.order === null) {
      const identity = new Int32Array(this.length)
      for (let i = 0; i < this.length; i++) identity[i] = i
      this.order = identity
    }
    return this.order
  }

  row(position: number): EmployeeRow {
    return this.generator.row(this.idAt(position))
  }

  /**
   * Inserts `add` new employees at the front and removes `remove` employees from just behind them, so a
   * client paging by offset while this happens sees rows twice or never.
   */
  churn(add: number, remove: number, random: () => number): void {
    if (add === 0 && remove === 0) return
    const previous = this.ids()
    const window = Math.min(previous.length, Math.max(remove * 3, REMOVAL_WINDOW_MIN))
    const removeCount = Math.min(remove, window)
    const doomed = new Set<number>()
    // Partial Fisher-Yates over the window picks distinct positions without bias.
    const candidates = Array.from({ length: window }, (_, i) => i)
    for (let i = 0; i < removeCount; i++) {
      const j = i + Math.floor(random() * (window - i))
      const chosen = candidates[j] ?? i
      candidates[j] = candidates[i] ?? i
      candidates[i] = chosen
      doomed.add(chosen)
    }
    const next = new Int32Array(add + previous.length - removeCount)
    for (let i = 0; i < add; i++) next[i] = this.nextId + add - 1 - i
    let write = add
    for (let position = 0; position < previous.length; position++) {
      if (!doomed.has(position)) next[write++] = previous[position] ?? 0
    }
    this.nextId += add
    this.order = next
    this.length = next.length
    this.currentVersion++
  }

  /**
   * Moves the status and pay cycle of `rows` employees, picked anywhere in the list, each to its next value: the
   * same people stay in the same order, only those two fields change (a sync reports them as changed).
   */
  mutate(rows: number, random: () => number): void {
    const count = Math.min(rows, this.length)
    if (count === 0) return
    // Partial Fisher-Yates over the positions picks distinct employees without bias.
    const positions = Int32Array.from({ length: this.length }, (_, i) => i)
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(random() * (this.length - i))
      const chosen = positions[j] ?? i
      positions[j] = positions[i] ?? i
      positions[i] = chosen
      this.generator.revise(this.idAt(chosen))
    }
    this.currentVersion++
  }
}
