import { describe, expect, it } from 'vitest'
import { exportStorageError } from '../../../../../src/main/core/export/export-storage-error'

function errno(code: string): Error {
  return Object.assign(new Error(`${code}: failed`), { code })
}

describe('exportStorageError', () => {
  const file = '/home/clerk/Documents/Roster.xlsx'

  it('words each file-system failure for a clerk, as a storage error', () => {
    const cases: Array<[string, RegExp]> = [
      ['ENOENT', /folder \/home\/clerk\/Documents does not exist/],
      ['EACCES', /may not save "Roster\.xlsx".*close it/],
      ['EPERM', /may not save/],
      ['EROFS', /may not save/],
      ['EBUSY', /in use by another program, probably Excel/],
      ['ENOSPC', /not enough free space/],
      ['EISDIR', /is a folder, not a file/],
      ['EIO', /could not save "Roster\.xlsx" in \/home\/clerk\/Documents/],
    ]
    for (const [code, message] of cases) {
      const error = exportStorageError(errno(code), file)
      expect(error.code, code).toBe('storage')
      expect(error.message, code).toMatch(message)
      expect(error.detail, code).toBe(code)
    }
  })
})
