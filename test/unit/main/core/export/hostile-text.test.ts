import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCacheDatabase, type CacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { queryRowSource } from '../../../../../src/main/core/export/export-query-source'
import { writeExport } from '../../../../../src/main/core/export/export-engine'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import { TRUNCATION_MARK } from '../../../../../src/main/core/sync/field-limit'
import { HOSTILE_TEXTS, hostileEmployeeIds } from '../../../../../src/main/sandbox/hostile-names'
import type { SandboxHandle } from '../../../../../src/main/sandbox/index'
import { startTestSandbox } from '../../../../helpers/sandbox'
import { syncFromSandbox } from '../../../../helpers/sync-from-sandbox'
import { readCsv, readXlsx, sheetNamed } from '../../../../helpers/xlsx-reader'
import { makeTempDir } from '../../../../helpers/cache-test-helpers'
import { ABOUT } from '../../../../helpers/export-fixtures'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

const SIZE = 120
// eslint-disable-next-line no-control-regex
const BREAKS_FILES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/

describe('hostile text from the service: kept as sent in the cache, neutralised in exports', () => {
  let sandbox: SandboxHandle
  let cache: CacheDatabase
  let queries: QueryEngine
  let dir: string
  let cleanup: () => void

  beforeAll(async () => {
    sandbox = await startTestSandbox({ size: SIZE, seed: 9, hostileNames: true })
    ;({ dir, cleanup } = makeTempDir('rosterdesk-hostile-'))
    cache = openCacheDatabase(join(dir, 'employees.sqlite'), { key: TEST_CACHE_KEY })
    await syncFromSandbox(cache, sandbox, { pageSize: 50 })
    queries = new QueryEngine(cache)
  }, 60_000)
  afterAll(async () => {
    cache.close()
    await sandbox.close()
    cleanup()
  })

  it('stores every hostile value byte for byte and finds them by name', () => {
    const ids = hostileEmployeeIds(SIZE)
    const sent = sandbox.allEmployees()
    for (const id of ids) {
      const row = sent[id] as Record<string, unknown>
      const detail = queries.getEmployee(String(row['UUID']))
      expect(detail?.row['firstName']).toBe(row['firstName'])
      // A 100 KB name is kept up to the cache's field limit, its end marked as cut (core/sync/field-limit.ts).
      const last = String(detail?.row['lastName'])
      if (String(row['lastName']).length > 10_000) {
        expect(last.endsWith(TRUNCATION_MARK)).toBe(true)
        expect(String(row['lastName']).startsWith(last.slice(0, -1))).toBe(true)
      } else expect(last).toBe(row['lastName'])
    }
    // Every word finds them: the markup and the override are only text in the index.
    const perHostile = hostileEmployeeIds(SIZE).length / HOSTILE_TEXTS.length
    expect(queries.query({ text: 'long namexxx', limit: 10 }).total).toBe(perHostile)
    expect(queries.query({ text: 'eve', limit: 10 }).total).toBe(perHostile)
  })

  it('CSV and XLSX open in strict readers, with control characters gone and formulas inert', async () => {
    const columns = [
      { key: 'UUID', label: 'UUID', kind: 'text' as const },
      { key: 'firstName', label: 'First name', kind: 'text' as const },
      { key: 'lastName', label: 'Last name', kind: 'text' as const },
      { key: 'jobTitle', label: 'Job title', kind: 'text' as const },
    ]
    const csvPath = join(dir, 'hostile.csv')
    await writeExport({
      source: queryRowSource(queries, {}),
      columns,
      about: ABOUT,
      filePath: csvPath,
      format: 'csv',
    })
    const csv = await readCsv(csvPath)
    expect(csv.records).toHaveLength(SIZE + 1)
    const csvCells = csv.records.flat()
    expect(csvCells.some((cell) => BREAKS_FILES.test(cell))).toBe(false)
    expect(csvCells).toContain(`'=HYPERLINK("http://evil.example","click")`)
    expect(csvCells).toContain('<script>window.__pwned=1</script>')

    const xlsxPath = join(dir, 'hostile.xlsx')
    await writeExport({
      source: queryRowSource(queries, {}),
      columns,
      about: ABOUT,
      filePath: xlsxPath,
      format: 'xlsx',
    })
    const workbook = await readXlsx(xlsxPath)
    const data = sheetNamed(workbook, workbook.sheetNames.find((name) => name !== 'About this export') ?? '')
    const texts = data.rows.flat().map((cell) => String(cell?.v ?? ''))
    expect(texts.some((text) => BREAKS_FILES.test(text))).toBe(false)
    expect(texts).toContain('Eve\u202Eexe.gnp')
    // A formula-like title is text, never a formula.
    expect(data.rows.flat().some((cell) => cell?.t === 'f')).toBe(false)
    expect(HOSTILE_TEXTS.length).toBeGreaterThan(3)
  }, 60_000)
})
