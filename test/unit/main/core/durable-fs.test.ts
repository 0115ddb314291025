import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PART_FILE_NAME, PartFile, writeFileDurably } from '../../../../src/main/core/durable-fs'
import { makeTempDir } from '../../../helpers/cache-test-helpers'

/** The one durable write: a part file beside the target, published whole or discarded. */
describe('durable-fs', () => {
  let dir: string
  let cleanup: () => void
  beforeEach(() => ({ dir, cleanup } = makeTempDir('rosterdesk-durable-')))
  afterEach(() => cleanup())

  it('a part file is a hidden name beside its target, and publishing gives it the target’s name', async () => {
    const target = join(dir, 'Roster.csv')
    writeFileSync(target, 'old')
    const part = PartFile.beside(target)
    expect(part.finalPath).toBe(target)
    expect(PART_FILE_NAME.test(part.path.slice(dir.length + 1))).toBe(true)
    writeFileSync(part.path, 'new', { flag: 'wx' })
    expect(readFileSync(target, 'utf8')).toBe('old')
    await part.publish()
    expect(readFileSync(target, 'utf8')).toBe('new')
    expect(readdirSync(dir)).toEqual(['Roster.csv'])
  })

  it('discarding removes the part file and never throws, even when there is none', async () => {
    const part = PartFile.beside(join(dir, 'Roster.csv'))
    await part.discard()
    writeFileSync(part.path, 'half')
    await part.discard()
    expect(readdirSync(dir)).toEqual([])
  })

  it('writeFileDurably creates the folder and writes the file whole with its mode, leaving nothing beside it', async () => {
    const path = join(dir, 'profile', 'secrets.json')
    await writeFileDurably(path, 'one')
    await writeFileDurably(path, 'two')
    expect(readFileSync(path, 'utf8')).toBe('two')
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(readdirSync(join(dir, 'profile'))).toEqual(['secrets.json'])
  })

  it('writeFileDurably removes its part file when the last step fails', async () => {
    const path = join(dir, 'taken')
    mkdirSync(path)
    await expect(writeFileDurably(path, 'text')).rejects.toThrow()
    expect(readdirSync(dir)).toEqual(['taken'])
  })
})
