import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EmployeeRow } from '../../src/shared/domain/rows'
import type { ExportAbout, ExportColumn, ExportRowSource } from '../../src/main/core/export/export-types'

/** Rows that have broken spreadsheets before: scripts, formulas, identifiers, dates, odd whitespace. */
export const TRICKY_ROWS: EmployeeRow[] = [
  {
    UUID: '3f2b8c1e-6a0d-4f8e-9b7a-1c2d3e4f5a6b',
    firstName: 'Zoë',
    lastName: "O'Brien-Núñez",
    employeeStatus: 'Active',
    employeeNumber: '0004711',
    hireDate: '2021-03-04',
    annualSalary: 52000.5,
    payCycleId: 'PC-2026-11-A',
    note: '=SUM(A1:A9)',
  },
  {
    UUID: 'a0000000-0000-4000-8000-000000000002',
    firstName: '李',
    lastName: '小龍',
    employeeStatus: 'On leave',
    employeeNumber: '+44 20 7946 0958',
    hireDate: '1999-12-31',
    annualSalary: 0,
    payCycleId: 'PC-2026-11-B',
    note: '+1234',
  },
  {
    UUID: 'a0000000-0000-4000-8000-000000000003',
    firstName: 'Мария',
    lastName: 'محمد',
    employeeStatus: 'Suspended',
    employeeNumber: '12345678901234567890',
    hireDate: '2026-11-22T10:15:30Z',
    annualSalary: -1250.75,
    payCycleId: 'PC-2026-12-A',
    note: "-2+3+cmd|' /C calc'!A0",
  },
  {
    UUID: 'a0000000-0000-4000-8000-000000000004',
    firstName: 'Øystein',
    lastName: 'Ångström',
    employeeStatus: 'Terminated',
    employeeNumber: '000',
    hireDate: '2026-11-22T10:15:00+01:00',
    annualSalary: 1e6,
    payCycleId: 'PC-MONTHLY',
    note: '@SUM(1)',
  },
  {
    UUID: 'a0000000-0000-4000-8000-000000000005',
    firstName: '  padded  ',
    lastName: 'Line one\nline two',
    employeeStatus: 'Pending',
    employeeNumber: '007',
    hireDate: null,
    annualSalary: 99999.99,
    payCycleId: 'PC-2026-11-A',
    note: 'tab\tinside, "quoted" and comma',
  },
  {
    UUID: 'a0000000-0000-4000-8000-000000000006',
    firstName: 'Emoji 🙂',
    lastName: 'Dvořák',
    employeeStatus: 'Active',
    employeeNumber: '42',
    hireDate: '2026-02-30',
    annualSalary: 31000,
    payCycleId: 'PC-2026-11-A',
    note: { formula: 'A1', nested: [1, 'two'] },
  },
  {
    UUID: 'a0000000-0000-4000-8000-000000000007',
    firstName: 'Bell\u0007char',
    lastName: 'Crlf\r\nname',
    employeeStatus: 'Active',
    employeeNumber: '0',
    hireDate: '1899-12-31',
    annualSalary: 45000,
    payCycleId: 'PC-2026-11-A',
    note: true,
  },
  {
    UUID: 'a0000000-0000-4000-8000-000000000008',
    firstName: 'Missing',
    lastName: 'Fields',
    employeeStatus: 'Active',
    note: false,
  },
]

export const TRICKY_COLUMNS: ExportColumn[] = [
  { key: 'UUID', label: 'UUID', kind: 'text' },
  { key: 'firstName', label: 'First name', kind: 'text' },
  { key: 'lastName', label: 'Last name', kind: 'text' },
  { key: 'employeeStatus', label: 'Status', kind: 'text' },
  { key: 'employeeNumber', label: 'Employee number', kind: 'text' },
  { key: 'hireDate', label: 'Hire date', kind: 'date' },
  { key: 'annualSalary', label: 'Annual salary', kind: 'number' },
  { key: 'payCycleId', label: 'Pay cycle', kind: 'text' },
  { key: 'note', label: 'Note', kind: 'mixed' },
]

export const ABOUT: ExportAbout = {
  kind: 'view',
  environment: 'staging',
  tenantId: 'tenant-acme',
  search: { text: 'smi', columnLabel: 'Last name' },
  statuses: ['Active', 'On leave'],
  payCycleIds: ['PC-2026-11-A'],
  sort: { columnLabel: 'Hire date', order: 'desc' },
  syncedAt: new Date('2026-11-21T08:30:00Z'),
  createdAt: new Date('2026-11-22T09:45:10Z'),
  // A zone other than the test machine's (UTC here), so the About sheet's times show they name their own.
  timeZone: 'Europe/Berlin',
  appVersion: '0.1.0',
}

const STATUSES = ['Active', 'On leave', 'Suspended', 'Terminated', 'Pending']
const FIRST = ['Anna', 'José', "D'Arcy", '美咲', 'Zoë', 'Мария', 'Søren', 'Nguyễn']

/** A deterministic employee like the sandbox's, for volume tests. */
export function generatedRow(index: number): EmployeeRow {
  return {
    UUID: `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
    firstName: `${FIRST[index % FIRST.length]}`,
    lastName: `Family${index % 977}`,
    employeeStatus: STATUSES[index % STATUSES.length] as string,
    employeeNumber: String(index).padStart(7, '0'),
    hireDate: `20${10 + (index % 15)}-${String(1 + (index % 12)).padStart(2, '0')}-${String(1 + (index % 28)).padStart(2, '0')}`,
    annualSalary: 30000 + (index % 70000) + 0.25,
    payCycleId: index % 3 === 0 ? 'PC-2026-11-A' : 'PC-2026-11-B',
  }
}

export const GENERATED_COLUMNS: ExportColumn[] = TRICKY_COLUMNS.filter((column) => column.key !== 'note')

/** A source that hands out rows in small batches and lets a test act between them. */
export function steppedSource(
  rows: ReadonlyArray<EmployeeRow>,
  batchSize: number,
  between: (batchIndex: number) => Promise<void> | void = () => undefined,
): ExportRowSource & { closed: () => boolean } {
  let closed = false
  return {
    total: rows.length,
    closed: () => closed,
    async *batches() {
      try {
        for (let start = 0, batch = 0; start < rows.length; start += batchSize, batch++) {
          await between(batch)
          yield rows.slice(start, start + batchSize)
        }
      } finally {
        closed = true
      }
    },
  }
}

/** A fresh temporary folder per test, removed afterwards. */
export function tempFolder(): { path: string; files: () => string[]; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'rosterdesk-export-'))
  return {
    path,
    files: () => readdirSync(path).sort(),
    remove: () => rmSync(path, { recursive: true, force: true }),
  }
}
