import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  PART_FILE_NAME,
  PartFile,
  removeStalePartFiles,
  STALE_PART_AGE_MS,
} from '../../../../src/main/core/durable-fs'
import { arrayRowSource } from '../../../../src/main/core/export/array-row-source'
import { writeExport } from '../../../../src/main/core/export/export-engine'
import { ABOUT, GENERATED_COLUMNS, generatedRow, tempFolder } from '../../../helpers/export-fixtures'

const HOUR_AGO = (Date.now() - STALE_PART_AGE_MS - 60_000) / 1000
const GONE = 999_999_999

/** A killed export's hidden partial file is removed by a later export into the same folder, and nothing else. */
describe('stale partial files', () => {
  let folder: ReturnType<typeof tempFolder>
  beforeEach(() => (folder = tempFolder()))
  afterEach(() => folder.remove())

  const file = (name: string, old = true): void => {
    writeFileSync(join(folder.path, name), 'partial')
    if (old) utimesSync(join(folder.path, name), HOUR_AGO, HOUR_AGO)
  }

  it('names every temporary file so that the pattern, and its writer, recognise it', () => {
    const temp = PartFile.beside(join(folder.path, 'Roster.xlsx')).path
    const name = temp.slice(folder.path.length + 1)
    expect(PART_FILE_NAME.exec(name)?.[1]).toBe(String(process.pid))
  })

  it('removes only old PartFile names whose writer is gone', async () => {
    file(`.Roster.xlsx.${GONE}-0a1b2c3d.part`) // killed export: removed
    file('.Roster.csv.0a1b2c3d.part') // an older version's name, old: removed
    file(`.Live.xlsx.${process.pid}-0a1b2c3d.part`) // its writer runs: kept
    file(`.Fresh.xlsx.${GONE}-0a1b2c3d.part`, false) // written within the hour: kept
    file('.Roster.xlsx.zzzzzzzz.part') // not our name
    file('Roster.xlsx.0a1b2c3d.part') // not hidden: not our name
    file('.notes.part')
    file('Roster.xlsx')
    mkdirSync(join(folder.path, `.Dir.xlsx.${GONE}-0a1b2c3d.part`))

    const removed = await removeStalePartFiles(folder.path, {
      now: Date.now(),
      isRunning: (pid) => pid === process.pid,
    })
    expect(removed).toBe(2)
    expect(folder.files()).toEqual(
      [
        `.Dir.xlsx.${GONE}-0a1b2c3d.part`,
        `.Fresh.xlsx.${GONE}-0a1b2c3d.part`,
        `.Live.xlsx.${process.pid}-0a1b2c3d.part`,
        '.Roster.xlsx.zzzzzzzz.part',
        '.notes.part',
        'Roster.xlsx',
        'Roster.xlsx.0a1b2c3d.part',
      ].sort(),
    )
  })

  it('a folder that cannot be read removes nothing and does not throw', async () => {
    expect(await removeStalePartFiles(join(folder.path, 'missing'), { now: Date.now() })).toBe(0)
  })

  it('an export into the folder clears a killed export’s file and says so in the log', async () => {
    file(`.Roster.xlsx.${GONE}-0a1b2c3d.part`)
    const warnings: string[] = []
    await writeExport({
      source: arrayRowSource([generatedRow(0)]),
      columns: GENERATED_COLUMNS,
      about: ABOUT,
      filePath: join(folder.path, 'Roster.csv'),
      format: 'csv',
      logger: { warn: (message) => warnings.push(message) },
    })
    expect(folder.files()).toEqual(['Roster.csv'])
    expect(warnings).toEqual(['Export: removed 1 partial file(s) a stopped export left behind'])
  })
})
