import { CULTURES } from './names'
import type { Culture } from './names'
import { EMAIL_NUMBER_DIGITS, emailNumberKey, emailPrefixRank, hexHalf, hexWord, isoDate } from './formats'
import { hostileTextOf } from './hostile-names'
import { hash32, pick, pickWeighted, weighted } from './random'

/**
 * One generated employee with some fields set by the caller: a named person a test can look for ("Greta
 * Achterberg, 58,234.50, hired 2026-11-27"). Every other field stays as generated, and sorting, filtering and
 * searching see the set values, since the generator answers with them wherever it is asked. Off by default, so the
 * data a sandbox serves changes only for the tests that pass fixtures.
 */
export interface FixtureEmployee {
  /** Which employee carries the fields: its 0-based index (its position in the default order before churn). */
  readonly index: number
  readonly firstName?: string
  readonly lastName?: string
  /** YYYY-MM-DD, a real calendar day. */
  readonly hireDate?: string
  /** At most two decimals, as every generated salary has, and not negative. */
  readonly annualSalary?: number
}

/** Field order of every row; the first four are the ones the spec shows, the rest are plausible extras. */
export const EMPLOYEE_FIELDS = [
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
] as const

export type EmployeeField = (typeof EMPLOYEE_FIELDS)[number]
export type FieldValue = string | number | null

export interface EmployeeRow {
  UUID: string
  firstName: string
  lastName: string
  employeeStatus: string
  employeeNumber: string
  email: string
  department: string
  jobTitle: string
  hireDate: string
  annualSalary: number
  payCycleId: string
  costCentre: string
  managerUUID: string | null
}

export function isEmployeeField(name: string): name is EmployeeField {
  return (EMPLOYEE_FIELDS as readonly string[]).includes(name)
}

/** The numeric codes `statusFilter` accepts; the spec only shows 1 = active, the rest are our guess. */
export const STATUS_BY_CODE: ReadonlyMap<number, string> = new Map([
  [1, 'Active'],
  [2, 'On leave'],
  [3, 'Suspended'],
  [4, 'Terminated'],
  [5, 'Pending'],
])

export const PAY_CYCLE_IDS = ['PC-MONTHLY', 'PC-2026-11-A', 'PC-2026-11-B', 'PC-2026-12-A'] as const
const STATUS_NAMES: readonly string[] = [...STATUS_BY_CODE.values()]

const STATUSES = weighted<string>([
  ['Active', 80],
  ['On leave', 7],
  ['Suspended', 2],
  ['Terminated', 7],
  ['Pending', 4],
])
const CULTURE_TABLE = weighted<Culture>(CULTURES.map((culture) => [culture, culture.weight]))
const PAY_CYCLES = weighted<string>([
  ['PC-MONTHLY', 40],
  ['PC-2026-11-A', 20],
  ['PC-2026-11-B', 20],
  ['PC-2026-12-A', 20],
])
const DEPARTMENTS = [
  'Finance',
  'Operations',
  'Engineering',
  'Sales',
  'Customer Support',
  'Human Resources',
  'Logistics',
  'Legal',
  'Marketing',
  'Research & Development',
] as const
const JOB_TITLES = [
  'Payroll Clerk',
  'Software Engineer',
  'Warehouse Operative',
  'Account Manager',
  'Staff Nurse',
  'Shift Supervisor',
  'HR Business Partner',
  'Data Analyst',
  'Customer Service Agent',
  'Forklift Driver',
  'Legal Counsel',
  'Marketing Executive',
  'Facilities Technician',
  'Sales Representative',
  'Accountant',
  'Team Lead',
  'Project Manager',
  'Receptionist',
  'Chef de Partie',
  'Head of R&D',
  'Senior Engineer, Platform',
  'Analyst "Level 2"',
] as const
/** Text a spreadsheet would run as a formula; present so export neutralisation can be tested. */
const FORMULA_LIKE_TITLES = ['=SUM(A1)', '+44 line support', '@home coordinator', '-10% sales lead'] as const
const FORMULA_LIKE_PER_MILLE = 6

const DAY_MS = 86_400_000

/** A fixture's fields as the generator keeps them: a salary in cents and a hire date as days, like its own. */
interface FixtureFields {
  readonly firstName?: string
  readonly lastName?: string
  readonly hireDay?: number
  readonly salaryCents?: number
}

/** Checks `fixtures` against a dataset of `size` employees (RangeError naming the fault) and keys them by index. */
export function fixtureFields(
  fixtures: readonly FixtureEmployee[],
  size: number,
): ReadonlyMap<number, FixtureFields> {
  const byIndex = new Map<number, FixtureFields>()
  for (const fixture of fixtures) {
    const { index, hireDate, annualSalary } = fixture
    if (!Number.isSafeInteger(index) || index < 0 || index >= size) {
      throw new RangeError(`fixture index ${index} must be a whole number below the size ${size}`)
    }
    if (byIndex.has(index)) throw new RangeError(`fixture index ${index} is given twice`)
    let hireDay: number | undefined
    if (hireDate !== undefined) {
      const parsed = /^\d{4}-\d{2}-\d{2}$/.test(hireDate) ? Date.parse(`${hireDate}T00:00:00Z`) : NaN
      if (Number.isNaN(parsed) || isoDate(parsed / DAY_MS) !== hireDate) {
        throw new RangeError(`fixture hire date ${hireDate} must be a real day written YYYY-MM-DD`)
      }
      hireDay = parsed / DAY_MS
    }
    let salaryCents: number | undefined
    if (annualSalary !== undefined) {
      salaryCents = Math.round(annualSalary * 100)
      if (!(annualSalary >= 0) || salaryCents / 100 !== annualSalary || !Number.isSafeInteger(salaryCents)) {
        throw new RangeError(`fixture salary ${annualSalary} must be an amount of at most two decimals, ≥ 0`)
      }
    }
    byIndex.set(index, {
      ...(fixture.firstName === undefined ? {} : { firstName: fixture.firstName }),
      ...(fixture.lastName === undefined ? {} : { lastName: fixture.lastName }),
      ...(hireDay === undefined ? {} : { hireDay }),
      ...(salaryCents === undefined ? {} : { salaryCents }),
    })
  }
  return byIndex
}

const FIRST_HIRE_DAY = Date.UTC(1990, 0, 1) / DAY_MS
const LAST_HIRE_DAY = Date.UTC(2026, 9, 31) / DAY_MS
const FIRST_PENDING_DAY = Date.UTC(2026, 10, 1) / DAY_MS

/** Each field hashes with its own salt, so fields are independent of each other. */
const Salt = {
  Culture: 0,
  FirstName: 1,
  LastName: 2,
  Status: 3,
  Department: 4,
  JobTitle: 5,
  FormulaLike: 6,
  HireDate: 7,
  Salary: 8,
  PayCycle: 9,
  CostCentre: 10,
  Manager: 11,
  UuidA: 12,
  UuidB: 13,
  UuidC: 14,
  UuidD: 15,
} as const
type Salt = (typeof Salt)[keyof typeof Salt]

/**
 * Builds any employee from its index in O(1), so a million-row dataset never needs a million objects.
 * Indices at or beyond `baseSize` are employees added later (churn) and use the same generator.
 */
export class EmployeeGenerator {
  /** How many times the `mutate` behaviour moved each employee's status and pay cycle on (absent: never). */
  private readonly revisions = new Map<number, number>()

  constructor(
    readonly seed: number,
    readonly baseSize: number,
    /** Every tenth employee gets hostile names and job titles (hostile-names.ts). */
    readonly hostileNames = false,
    /** Employees with fields set by the caller (`fixtureFields`), which win over generated and hostile ones. */
    private readonly fixtures: ReadonlyMap<number, FixtureFields> = new Map(),
  ) {}

  /** Moves an employee's status and pay cycle each to the next value in their lists; every other field stays. */
  revise(id: number): void {
    this.revisions.set(id, (this.revisions.get(id) ?? 0) + 1)
  }

  private h(salt: Salt, id: number): number {
    return hash32(this.seed, salt, id)
  }

  private culture(id: number): Culture {
    return pickWeighted(CULTURE_TABLE, this.h(Salt.Culture, id))
  }

  /** The UUID's first 32 bits: a bijection of the index, so unique, and it orders UUIDs like their text. */
  uuidKey(id: number): number {
    return this.h(Salt.UuidA, id)
  }

  uuid(id: number): string {
    const a = this.uuidKey(id)
    const b = this.h(Salt.UuidB, id)
    const c = this.h(Salt.UuidC, id)
    const d = this.h(Salt.UuidD, id)
    const version = 0x4000 | (b & 0x0fff)
    const variant = 0x8000 | ((c >>> 16) & 0x3fff)
    // join() yields one flat string; template literals build rope strings that cost ~5x the memory.
    return [
      hexWord(a),
      '-',
      hexHalf(b >>> 16),
      '-',
      hexHalf(version),
      '-',
      hexHalf(variant),
      '-',
      hexHalf(c),
      hexWord(d),
    ].join('')
  }

  firstName(id: number): string {
    const fixed = this.fixtures.get(id)?.firstName
    if (fixed !== undefined) return fixed
    const hostile = this.hostileNames ? hostileTextOf(id) : undefined
    return hostile?.first ?? pick(this.culture(id).first, this.h(Salt.FirstName, id)).text
  }

  lastName(id: number): string {
    const fixed = this.fixtures.get(id)?.lastName
    if (fixed !== undefined) return fixed
    const hostile = this.hostileNames ? hostileTextOf(id) : undefined
    return hostile?.last ?? pick(this.culture(id).last, this.h(Salt.LastName, id)).text
  }

  /** The status the employee was generated with, before any `mutate`. */
  private baseStatus(id: number): string {
    return pickWeighted(STATUSES, this.h(Salt.Status, id))
  }

  employeeStatus(id: number): string {
    return this.revised(STATUS_NAMES, this.baseStatus(id), id)
  }

  /** `base` moved on by the employee's revisions, so each revision differs from the one before. */
  private revised(values: readonly string[], base: string, id: number): string {
    const revision = this.revisions.get(id) ?? 0
    if (revision === 0) return base
    return values[(values.indexOf(base) + revision) % values.length] ?? base
  }

  employeeNumber(id: number): string {
    return String(id + 1).padStart(7, '0')
  }

  private emailParts(id: number): [string, string] {
    const culture = this.culture(id)
    return [
      pick(culture.first, this.h(Salt.FirstName, id)).ascii,
      pick(culture.last, this.h(Salt.LastName, id)).ascii,
    ]
  }

  email(id: number): string {
    const [first, last] = this.emailParts(id)
    return [first, '.', last, '.', id + 1, '@rosterdesk-demo.example'].join('')
  }

  /**
   * An integer below 2^53 that orders e-mails exactly as their text does: names are [a-z] only, so the
   * `first.last.` prefix decides first, then the number before the shared domain.
   */
  emailOrderKey(id: number): number {
    const [first, last] = this.emailParts(id)
    return emailPrefixRank(`${first}.${last}.`) * 11 ** EMAIL_NUMBER_DIGITS + emailNumberKey(id + 1)
  }

  private departmentIndex(id: number): number {
    return this.h(Salt.Department, id) % DEPARTMENTS.length
  }

  department(id: number): string {
    return pick(DEPARTMENTS, this.departmentIndex(id))
  }

  jobTitle(id: number): string {
    const hostile = this.hostileNames ? hostileTextOf(id) : undefined
    if (hostile !== undefined) return hostile.jobTitle
    if (this.h(Salt.FormulaLike, id) % 1000 < FORMULA_LIKE_PER_MILLE) {
      return pick(FORMULA_LIKE_TITLES, this.h(Salt.JobTitle, id))
    }
    return pick(JOB_TITLES, this.h(Salt.JobTitle, id))
  }

  /** Days since 1970-01-01; orders hire dates exactly as their ISO text does. */
  hireDay(id: number): number {
    const fixed = this.fixtures.get(id)?.hireDay
    if (fixed !== undefined) return fixed
    const hash = this.h(Salt.HireDate, id)
    // Pending employees have not started yet, so their hire date lies in the future. The generated status decides,
    // so `mutate` moves only the status and pay cycle, never the hire date.
    return this.baseStatus(id) === 'Pending'
      ? FIRST_PENDING_DAY + (hash % 90)
      : FIRST_HIRE_DAY + (hash % (LAST_HIRE_DAY - FIRST_HIRE_DAY + 1))
  }

  hireDate(id: number): string {
    return isoDate(this.hireDay(id))
  }

  salaryCents(id: number): number {
    const fixed = this.fixtures.get(id)?.salaryCents
    if (fixed !== undefined) return fixed
    return 2_400_000 + (this.h(Salt.Salary, id) % 15_600_001)
  }

  annualSalary(id: number): number {
    return this.salaryCents(id) / 100
  }

  payCycleId(id: number): string {
    return this.revised(PAY_CYCLE_IDS, pickWeighted(PAY_CYCLES, this.h(Salt.PayCycle, id)), id)
  }

  costCentre(id: number): string {
    const unit = this.h(Salt.CostCentre, id) % 4
    return `CC-${(this.departmentIndex(id) + 1) * 100 + unit}`
  }

  /** Managers always have a lower index, so reporting lines never loop. */
  managerId(id: number): number | null {
    const hash = this.h(Salt.Manager, id)
    const pool = Math.min(id, this.baseSize)
    if (pool === 0 || hash % 100 < 8) return null
    return hash % pool
  }

  managerUUID(id: number): string | null {
    const manager = this.managerId(id)
    return manager === null ? null : this.uuid(manager)
  }

  value(field: EmployeeField, id: number): FieldValue {
    switch (field) {
      case 'UUID':
        return this.uuid(id)
      case 'firstName':
        return this.firstName(id)
      case 'lastName':
        return this.lastName(id)
      case 'employeeStatus':
        return this.employeeStatus(id)
      case 'employeeNumber':
        return this.employeeNumber(id)
      case 'email':
        return this.email(id)
      case 'department':
        return this.department(id)
      case 'jobTitle':
        return this.jobTitle(id)
      case 'hireDate':
        return this.hireDate(id)
      case 'annualSalary':
        return this.annualSalary(id)
      case 'payCycleId':
        return this.payCycleId(id)
      case 'costCentre':
        return this.costCentre(id)
      case 'managerUUID':
        return this.managerUUID(id)
    }
  }

  row(id: number): EmployeeRow {
    return {
      UUID: this.uuid(id),
      firstName: this.firstName(id),
      lastName: this.lastName(id),
      employeeStatus: this.employeeStatus(id),
      employeeNumber: this.employeeNumber(id),
      email: this.email(id),
      department: this.department(id),
      jobTitle: this.jobTitle(id),
      hireDate: this.hireDate(id),
      annualSalary: this.annualSalary(id),
      payCycleId: this.payCycleId(id),
      costCentre: this.costCentre(id),
      managerUUID: this.managerUUID(id),
    }
  }
}
