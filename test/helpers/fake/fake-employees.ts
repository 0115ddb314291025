import type { EmployeeRow } from '../../../src/shared/domain/rows'

const FIRST = ['Ava', 'Noah', 'Zoë', 'Liam', 'Åsa', 'Mateo', 'Siobhán', 'Yuki', 'Olu', 'Chloé', 'Ivan', 'Mei']
const LAST = [
  'Smith',
  'Smithers',
  "O'Brien",
  'Müller',
  'Nguyễn',
  'Jones',
  'Garcia',
  '山田',
  'Kowalski',
  'Brown',
  'Patel',
]
const STATUSES = ['Active', 'Active', 'Active', 'On leave', 'Suspended', 'Terminated', 'Pending']
const PAY_CYCLES = ['PC-2026-11-A', 'PC-2026-11-B', 'PC-2026-12-A', 'PC-MONTHLY']
const DEPARTMENTS = ['Finance', 'Operations', 'Sales', 'People']

/** A UUID-shaped id that is the same for the same index, so tests can name rows. */
export function fakeUuid(index: number): string {
  const hex = index.toString(16).padStart(12, '0')
  return `00000000-0000-4000-8000-${hex}`
}

/**
 * Deterministic employees shaped like the sandbox's: the four known fields plus discovered extras, with accents,
 * apostrophes and non-Latin names. Row i is the same for every count.
 */
export function makeEmployees(count: number): EmployeeRow[] {
  return Array.from({ length: count }, (_, i) => ({
    UUID: fakeUuid(i),
    firstName: FIRST[i % FIRST.length]!,
    lastName: LAST[(i * 7) % LAST.length]!,
    employeeStatus: STATUSES[i % STATUSES.length]!,
    employeeNumber: String(i + 1).padStart(6, '0'),
    email: `employee${i + 1}@example.com`,
    department: DEPARTMENTS[i % DEPARTMENTS.length]!,
    hireDate: `20${String(10 + (i % 15)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`,
    annualSalary: 30_000 + ((i * 1_337) % 70_000),
    payCycleId: PAY_CYCLES[i % PAY_CYCLES.length]!,
    managerUUID: i < 5 ? null : fakeUuid(i % 5),
  }))
}
