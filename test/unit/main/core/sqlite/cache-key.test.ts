import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CacheKey } from '../../../../../src/main/core/sqlite/cache-key'
import { openSqlite } from '../../../../../src/main/core/sqlite/sqlite-open'
import { RosterDeskError } from '../../../../../src/main/core/errors'

const folders: string[] = []
function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'rd-cache-key-'))
  folders.push(made)
  return made
}
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true })
})

describe('an encrypted cache file', () => {
  it('keeps its rows unreadable without the key and answers with it', () => {
    const path = join(folder(), 'cache.db')
    const key = CacheKey.create()
    const db = openSqlite(path, { key })
    db.exec('CREATE TABLE people (name TEXT)')
    db.prepare('INSERT INTO people VALUES (?)').run('Zebedee Quarrington')
    db.close()
    const bytes = readFileSync(path)
    expect(bytes.includes('Zebedee')).toBe(false)
    expect(bytes.subarray(0, 16).toString('latin1')).not.toBe('SQLite format 3\0')
    const again = openSqlite(path, { key: CacheKey.fromHex(key.revealHex()), fileMustExist: true })
    expect(again.prepare('SELECT name FROM people').pluck().get()).toBe('Zebedee Quarrington')
    again.close()
  })

  it('fails at open as a damaged cache under another key or none', () => {
    const path = join(folder(), 'cache.db')
    openSqlite(path, { key: CacheKey.create() }).exec('CREATE TABLE t (a)')
    const wrong = (): unknown => openSqlite(path, { key: CacheKey.create(), fileMustExist: true })
    expect(wrong).toThrow(RosterDeskError)
    expect(() => wrong()).toThrow(/could not be unlocked with this computer’s key; a full sync is needed/)
    expect(wrong).toThrow(expect.objectContaining({ code: 'damaged-cache' }))
    const plain = openSqlite(path, { fileMustExist: true })
    expect(() => plain.prepare('SELECT count(*) FROM sqlite_schema').get()).toThrow(/not a database/)
    plain.close()
  })

  it('never shows its bytes in a string or JSON, and refuses what is not a key', () => {
    const key = CacheKey.create()
    expect(String(key)).toBe('[cache key]')
    expect(JSON.stringify({ key })).toBe('{"key":"[cache key]"}')
    expect(() => CacheKey.fromHex('abc')).toThrow(/not a valid key/)
  })
})
