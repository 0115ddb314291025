import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { SyncRunSummary } from '../../src/shared/domain/sync'
import { numbersAsTextText, shortenedValuesText } from '../../src/shared/shortened-values'
import { SyncBar } from '../../src/renderer/src/components/sync-bar'
import type { SyncController } from '../../src/renderer/src/hooks/use-sync'

afterEach(cleanup)

const COMPLETE: SyncRunSummary = {
  id: 4,
  status: 'complete',
  startedAt: '2026-11-25T06:00:00.000Z',
  endedAt: '2026-11-25T06:01:00.000Z',
  totalCount: 1200,
  stored: 1200,
  pages: 12,
  requests: 13,
  durationMs: 60_000,
}

function syncBarWith(lastComplete: SyncRunSummary, running = false) {
  const sync: SyncController = {
    status: { running, lastRun: lastComplete, lastComplete, employeeCount: lastComplete.stored },
    running,
    progress: undefined,
    problem: undefined,
    cancelled: false,
    dataVersion: `${lastComplete.id}:${lastComplete.stored}`,
    start: () => undefined,
    cancel: () => undefined,
    refresh: () => undefined,
  }
  return render(<SyncBar sync={sync} signedIn onSignIn={() => undefined} authError={undefined} />)
}

describe('values a sync shortened', () => {
  it('are counted in words shared with the CLI', () => {
    expect(shortenedValuesText(1)).toBe('1 long value was shortened')
    expect(shortenedValuesText(1234)).toBe('1,234 long values were shortened')
  })

  it('are said in the sync bar after the sync that saved them, with where to look', () => {
    syncBarWith({ ...COMPLETE, truncatedFields: 3 })
    expect(
      screen.getByText('3 long values were shortened; see the log (Help → Open log folder).'),
    ).toBeTruthy()
  })

  it('are not mentioned when none was, nor while the next sync runs', () => {
    syncBarWith(COMPLETE)
    expect(screen.queryByText(/long value/)).toBeNull()
    cleanup()
    syncBarWith({ ...COMPLETE, truncatedFields: 2 }, true)
    expect(screen.queryByText(/long value/)).toBeNull()
  })
})

describe('numbers a sync kept as text (decision 052)', () => {
  it('are counted in words shared with the CLI, by which end of a double’s range they are past', () => {
    expect(numbersAsTextText(2)).toBe('2 values were too large for a number and were kept as text.')
    expect(numbersAsTextText(0, 1)).toBe('1 value was too small for a number and was kept as text.')
    expect(numbersAsTextText(1, 1234)).toBe(
      '1 value was too large for a number and was kept as text. ' +
        '1,234 values were too small for a number and were kept as text.',
    )
    expect(numbersAsTextText()).toBe('')
  })

  it('are said in the sync bar after the sync that saved them, and not while the next one runs', () => {
    syncBarWith({ ...COMPLETE, numbersTooLarge: 2 })
    expect(screen.getByText('2 values were too large for a number and were kept as text.')).toBeTruthy()
    cleanup()
    syncBarWith({ ...COMPLETE, numbersTooLarge: 2 }, true)
    expect(screen.queryByText(/for a number/)).toBeNull()
  })
})
