import { describe, expect, it } from 'vitest'
import { EmployeeGenerator, fixtureFields } from '../../../../src/main/sandbox/data'
import { sortIds } from '../../../../src/main/sandbox/sort-order'
import { PAY_CYCLE_IDS } from '../../../../src/main/sandbox/index'

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const SAMPLE = 5000

function sample(seed = 1, size = SAMPLE): ReturnType<EmployeeGenerator['row']>[] {
  const generator = new EmployeeGenerator(seed, size)
  return Array.from({ length: size }, (_, id) => generator.row(id))
}

describe('generated employee data', () => {
  const rows = sample()
  const names = rows.flatMap((row) => [row.firstName, row.lastName])

  it('is identical for the same seed and different for another seed', () => {
    expect(sample(42, 200)).toEqual(sample(42, 200))
    expect(sample(43, 200)).not.toEqual(sample(42, 200))
  })

  it('builds a row from its index alone, whatever the dataset size', () => {
    const big = new EmployeeGenerator(1, 1_000_000)
    const small = new EmployeeGenerator(1, 1000)
    expect(big.row(999)).toEqual(small.row(999))
    expect(big.row(999_999).employeeNumber).toBe('1000000')
  })

  it('gives every employee a distinct version 4 UUID', () => {
    for (const row of rows) expect(row.UUID).toMatch(UUID_V4)
    expect(new Set(rows.map((row) => row.UUID)).size).toBe(rows.length)
  })

  it('has the four spec fields and the extra fields with their types', () => {
    for (const row of rows.slice(0, 200)) {
      expect(Object.keys(row)).toEqual([
        'UUID',
        'firstName',
        'lastName',
        'employeeStatus',
        'employeeNumber',
        'email',
        'department',
        'jobTitle',
        'hireDate',
        'annualSalary',
        'payCycleId',
        'costCentre',
        'managerUUID',
      ])
      expect(row.employeeNumber).toMatch(/^\d{7}$/)
      expect(row.email).toMatch(/^[a-z]+\.[a-z]+\.\d+@rosterdesk-demo\.example$/)
      expect(row.hireDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(Math.round(row.annualSalary * 100) / 100).toBe(row.annualSalary)
      expect(PAY_CYCLE_IDS).toContain(row.payCycleId)
      expect(row.costCentre).toMatch(/^CC-\d{3,4}$/)
    }
  })

  it('keeps leading zeros in employee numbers', () => {
    expect(rows[4710]?.employeeNumber).toBe('0004711')
  })

  it('makes about 80% of employees Active and uses all five textual statuses', () => {
    const active = rows.filter((row) => row.employeeStatus === 'Active').length
    expect(active / rows.length).toBeGreaterThan(0.75)
    expect(active / rows.length).toBeLessThan(0.85)
    expect(new Set(rows.map((row) => row.employeeStatus))).toEqual(
      new Set(['Active', 'On leave', 'Suspended', 'Terminated', 'Pending']),
    )
  })

  it('points managers at other existing employees or at nobody', () => {
    const uuids = new Set(rows.map((row) => row.UUID))
    const managers = rows.map((row) => row.managerUUID)
    expect(managers).toContain(null)
    for (const manager of managers) if (manager !== null) expect(uuids.has(manager)).toBe(true)
  })

  it('includes names in non-Latin scripts', () => {
    for (const script of [
      /\p{Script=Han}/u,
      /\p{Script=Greek}/u,
      /\p{Script=Cyrillic}/u,
      /\p{Script=Arabic}/u,
    ]) {
      expect(names.some((name) => script.test(name))).toBe(true)
    }
    expect(names).toContain('田中')
  })

  it('includes apostrophes, accents, hyphens and multi-word surnames', () => {
    expect(names.some((name) => name.includes("'"))).toBe(true)
    expect(names.some((name) => /[éëüłñ]/.test(name))).toBe(true)
    expect(names.some((name) => /\p{L}-\p{L}/u.test(name))).toBe(true)
    expect(names.some((name) => name.includes(' '))).toBe(true)
    expect(names).toContain("O'Brien")
    expect(names).toContain('van der Berg')
  })

  it('has several surnames sharing the prefix Smi', () => {
    const smi = new Set(rows.map((row) => row.lastName).filter((name) => name.startsWith('Smi')))
    expect(smi.size).toBeGreaterThanOrEqual(3)
    expect(smi).toContain('Smith')
  })

  it('puts spreadsheet-formula-like text in a small fraction of rows', () => {
    const tricky = rows.filter((row) => /^[=+@-]/.test(row.jobTitle))
    expect(tricky.length).toBeGreaterThan(0)
    expect(tricky.length / rows.length).toBeLessThan(0.02)
  })
})

describe('fixture employees', () => {
  const GRETA = {
    index: 41,
    firstName: 'Greta',
    lastName: 'Achterberg',
    annualSalary: 58_234.5,
    hireDate: '2026-11-27',
  } as const

  it('carry the fields set and keep every other field as generated', () => {
    const plain = new EmployeeGenerator(1, 100)
    const fixed = new EmployeeGenerator(1, 100, false, fixtureFields([GRETA], 100))
    const row = fixed.row(41)
    expect(row).toEqual({
      ...plain.row(41),
      firstName: 'Greta',
      lastName: 'Achterberg',
      annualSalary: 58_234.5,
      hireDate: '2026-11-27',
    })
    expect(fixed.row(40)).toEqual(plain.row(40))
  })

  it('sort where their set values put them', () => {
    const generator = new EmployeeGenerator(1, 100, false, fixtureFields([GRETA], 100))
    const ids = Int32Array.from({ length: 100 }, (_, id) => id)
    for (const field of ['annualSalary', 'hireDate', 'lastName'] as const) {
      const values = [...sortIds(ids, field, 'asc', generator)].map((id) => generator.value(field, id))
      expect(values).toEqual([...values].sort((a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0)))
      expect(values).toContain(generator.value(field, 41))
    }
  })

  it.each([
    [{ index: 100 }, 'fixture index 100 must be a whole number below the size 100'],
    [
      { index: 1, hireDate: '2026-02-30' },
      'fixture hire date 2026-02-30 must be a real day written YYYY-MM-DD',
    ],
    [
      { index: 1, annualSalary: 1.005 },
      'fixture salary 1.005 must be an amount of at most two decimals, ≥ 0',
    ],
    [{ index: 1, annualSalary: -1 }, 'fixture salary -1 must be an amount of at most two decimals, ≥ 0'],
  ])('are refused with the fault named: %j', (fixture, message) => {
    expect(() => fixtureFields([fixture], 100)).toThrow(new RangeError(message))
  })

  it('are refused when two set the same employee', () => {
    expect(() => fixtureFields([{ index: 3 }, { index: 3 }], 100)).toThrow('fixture index 3 is given twice')
  })
})
