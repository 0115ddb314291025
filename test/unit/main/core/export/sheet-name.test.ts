import { describe, expect, it } from 'vitest'
import { dataSheetBaseName, dataSheetName } from '../../../../../src/main/core/export/xlsx-writer'

describe('data sheet names', () => {
  it('names a roster’s sheets for its pay cycle and any other export’s "Employees"', () => {
    expect(dataSheetBaseName({ kind: 'view' })).toBe('Employees')
    expect(dataSheetBaseName({ kind: 'roster', payCycleId: 'PC-2026-11-A' })).toBe('Roster PC-2026-11-A')
    expect(dataSheetName(1, 'Roster PC-2026-11-A')).toBe('Roster PC-2026-11-A')
    expect(dataSheetName(3, 'Roster PC-2026-11-A')).toBe('Roster PC-2026-11-A (3)')
  })

  it('keeps within what Excel accepts: 31 characters with room for " (99)", none of []:*?/\\', () => {
    const odd = dataSheetBaseName({ kind: 'roster', payCycleId: "PC:2026/11\\A*?[x]'" })
    expect(odd).toBe('Roster PC-2026-11-A---x-')
    const long = dataSheetBaseName({ kind: 'roster', payCycleId: 'A-VERY-LONG-PAY-CYCLE-IDENTIFIER-2026' })
    expect(long).toBe('Roster A-VERY-LONG-PAY-CYC')
    expect(dataSheetName(99, long).length).toBeLessThanOrEqual(31)
    expect(dataSheetBaseName({ kind: 'roster', payCycleId: '\u0001\u0002' })).toBe('Roster')
  })
})
