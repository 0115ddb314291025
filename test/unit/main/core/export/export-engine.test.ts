import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ExportProgress } from '../../../../../src/shared/domain/export'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { arrayRowSource } from '../../../../../src/main/core/export/array-row-source'
import { writeExport } from '../../../../../src/main/core/export/export-engine'
import { readXlsx, sheetNamed } from '../../../../helpers/xlsx-reader'
import {
  ABOUT,
  GENERATED_COLUMNS,
  generatedRow,
  steppedSource,
  tempFolder,
} from '../../../../helpers/export-fixtures'

const ROWS = Array.from({ length: 5000 }, (_, index) => generatedRow(index))

async function rejection(promise: Promise<unknown>): Promise<RosterDeskError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(RosterDeskError)
  return error as RosterDeskError
}

describe('export engine: progress, cancel and failures', () => {
  let folder: ReturnType<typeof tempFolder>
  beforeEach(() => {
    folder = tempFolder()
  })
  afterEach(() => folder.remove())

  it('reports progress from 0 to the total, never backwards', async () => {
    const events: ExportProgress[] = []
    await writeExport({
      source: arrayRowSource(ROWS.slice(0, 1200), 500),
      columns: GENERATED_COLUMNS,
      about: ABOUT,
      filePath: join(folder.path, 'progress.xlsx'),
      format: 'xlsx',
      onProgress: (progress) => events.push(progress),
    })
    expect(events).toEqual([
      { rowsWritten: 0, rowsTotal: 1200 },
      { rowsWritten: 500, rowsTotal: 1200 },
      { rowsWritten: 1000, rowsTotal: 1200 },
      { rowsWritten: 1200, rowsTotal: 1200 },
    ])
  })

  for (const format of ['xlsx', 'csv'] as const) {
    it(`leaves neither file nor temporary file when a ${format} export is cancelled midway`, async () => {
      const controller = new AbortController()
      const source = steppedSource(ROWS, 250)
      const error = await rejection(
        writeExport({
          source,
          columns: GENERATED_COLUMNS,
          about: ABOUT,
          filePath: join(folder.path, `cancelled.${format}`),
          format,
          signal: controller.signal,
          onProgress: (progress) => {
            if (progress.rowsWritten >= 1500) controller.abort()
          },
        }),
      )
      expect(error.code).toBe('cancelled')
      expect(error.message).toBe('The export was cancelled.')
      expect(folder.files()).toEqual([])
      // The row source was told to stop (the query engine releases its snapshot then).
      expect(source.closed()).toBe(true)
    })
  }

  it('still leaves no file when the cancel arrives after the last row', async () => {
    const controller = new AbortController()
    const error = await rejection(
      writeExport({
        source: arrayRowSource(ROWS.slice(0, 300)),
        columns: GENERATED_COLUMNS,
        about: ABOUT,
        filePath: join(folder.path, 'late.xlsx'),
        format: 'xlsx',
        signal: controller.signal,
        onProgress: (progress) => {
          if (progress.rowsWritten === 300) controller.abort()
        },
      }),
    )
    expect(error.code).toBe('cancelled')
    expect(folder.files()).toEqual([])
  })

  it('does not even create the file when cancelled before it starts', async () => {
    const controller = new AbortController()
    controller.abort()
    const error = await rejection(
      writeExport({
        source: arrayRowSource(ROWS),
        columns: GENERATED_COLUMNS,
        about: ABOUT,
        filePath: join(folder.path, 'never.xlsx'),
        format: 'xlsx',
        signal: controller.signal,
      }),
    )
    expect(error.code).toBe('cancelled')
    expect(folder.files()).toEqual([])
  })

  it('keeps an existing file untouched when the new export is cancelled, and replaces it when one succeeds', async () => {
    const filePath = join(folder.path, 'Roster.xlsx')
    writeFileSync(filePath, 'the previous export')
    const controller = new AbortController()
    await rejection(
      writeExport({
        source: steppedSource(ROWS, 500),
        columns: GENERATED_COLUMNS,
        about: ABOUT,
        filePath,
        format: 'xlsx',
        signal: controller.signal,
        onProgress: (progress) => {
          if (progress.rowsWritten > 0) controller.abort()
        },
      }),
    )
    expect(folder.files()).toEqual(['Roster.xlsx'])
    expect(readFileSync(filePath, 'utf8')).toBe('the previous export')

    await writeExport({
      source: arrayRowSource(ROWS.slice(0, 5)),
      columns: GENERATED_COLUMNS,
      about: ABOUT,
      filePath,
      format: 'xlsx',
    })
    expect(folder.files()).toEqual(['Roster.xlsx'])
    expect(sheetNamed(await readXlsx(filePath), 'Employees').rows).toHaveLength(6)
  })

  it('refuses a folder that does not exist with a storage error and creates nothing', async () => {
    const missing = join(folder.path, 'no-such-folder')
    const error = await rejection(
      writeExport({
        source: arrayRowSource(ROWS.slice(0, 10)),
        columns: GENERATED_COLUMNS,
        about: ABOUT,
        filePath: join(missing, 'Employees.xlsx'),
        format: 'xlsx',
      }),
    )
    expect(error.code).toBe('storage')
    expect(error.message).toContain(missing)
    expect(error.message).toMatch(/does not exist/)
    expect(folder.files()).toEqual([])
  })

  it('refuses a "folder" that is a file with a storage error', async () => {
    writeFileSync(join(folder.path, 'plain-file'), 'x')
    const error = await rejection(
      writeExport({
        source: arrayRowSource(ROWS.slice(0, 10)),
        columns: GENERATED_COLUMNS,
        about: ABOUT,
        filePath: join(folder.path, 'plain-file', 'Employees.csv'),
        format: 'csv',
      }),
    )
    expect(error.code).toBe('storage')
    expect(folder.files()).toEqual(['plain-file'])
  })

  it('reports a storage error and removes the temporary file when the finished file cannot take its name', async () => {
    // The chosen name is taken by a folder: everything is written, then the final rename fails.
    const filePath = join(folder.path, 'Employees.xlsx')
    mkdirSync(filePath)
    const error = await rejection(
      writeExport({
        source: arrayRowSource(ROWS.slice(0, 50)),
        columns: GENERATED_COLUMNS,
        about: ABOUT,
        filePath,
        format: 'xlsx',
      }),
    )
    expect(error.code).toBe('storage')
    expect(error.message).toContain('Employees.xlsx')
    expect(folder.files()).toEqual(['Employees.xlsx'])
  })

  it("passes a failing row source's error through and leaves no file", async () => {
    const failure = new RosterDeskError('storage', 'The employee cache could not be read.')
    const source = steppedSource(ROWS, 400, (batch) => {
      if (batch === 3) throw failure
    })
    const error = await rejection(
      writeExport({
        source,
        columns: GENERATED_COLUMNS,
        about: ABOUT,
        filePath: join(folder.path, 'broken.xlsx'),
        format: 'xlsx',
      }),
    )
    expect(error).toBe(failure)
    expect(folder.files()).toEqual([])
  })

  it('refuses impossible options before creating a file', async () => {
    const base = {
      source: arrayRowSource(ROWS.slice(0, 1)),
      about: ABOUT,
      filePath: join(folder.path, 'x.xlsx'),
      format: 'xlsx' as const,
    }
    expect(
      (await rejection(writeExport({ ...base, columns: GENERATED_COLUMNS, maxRowsPerSheet: 1 }))).code,
    ).toBe('validation')
    expect((await rejection(writeExport({ ...base, columns: [] }))).code).toBe('validation')
    expect(folder.files()).toEqual([])
  })
})
