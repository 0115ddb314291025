import { describe, expect, it } from 'vitest'
import {
  CHANGE_HISTORY_BYTES,
  changeLogsToRelease,
} from '../../../../../src/main/core/cache/change-retention'
import { CHANGE_HISTORY_RUNS } from '../../../../../src/shared/change-rules'

const MB = 1024 * 1024

/** Complete runs newest first, ids counting down from `count`, each with a log of `bytes`. */
function runs(count: number, bytes: (index: number) => number | undefined = () => MB) {
  return Array.from({ length: count }, (_, index) => {
    const size = bytes(index)
    return size === undefined ? { runId: count - index } : { runId: count - index, changeLogBytes: size }
  })
}

describe('change history retention', () => {
  it('keeps the logs of the last 20 complete syncs and lets the older ones go', () => {
    expect(CHANGE_HISTORY_RUNS).toBe(20)
    expect(changeLogsToRelease(runs(20))).toEqual([])
    expect(changeLogsToRelease(runs(23))).toEqual([3, 2, 1])
  })

  it('counts syncs without a log (a first sync) among the 20', () => {
    const history = runs(22, (index) => (index === 21 ? undefined : MB))
    expect(changeLogsToRelease(history)).toEqual([2])
  })

  it('keeps older logs only while all of them fit the byte budget, and leaves no holes', () => {
    const limits = { runs: 20, bytes: 10 * MB }
    const sizes = [4, 4, 3, 1, 1].map((size) => size * MB)
    // 4 + 4 fit; the 3 MB log would pass 10 MB, so it and every older one go, small or not.
    expect(
      changeLogsToRelease(
        runs(5, (index) => sizes[index]),
        limits,
      ),
    ).toEqual([3, 2, 1])
  })

  it('always keeps the newest log, however large', () => {
    const huge = [CHANGE_HISTORY_BYTES * 2, MB]
    expect(changeLogsToRelease(runs(2, (index) => huge[index]))).toEqual([1])
  })
})
