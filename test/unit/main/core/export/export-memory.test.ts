import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ExportMemory } from '../../../../../src/main/core/export/export-memory'
import { MemoryKeyValueBackend } from '../../../../../src/main/core/settings/settings-store'

describe('ExportMemory', () => {
  const folder = join('/', 'home', 'clerk', 'Rosters')

  it('offers the bare file name until a file was written, then that file’s folder', () => {
    const backend = new MemoryKeyValueBackend()
    const memory = new ExportMemory(backend)
    expect(memory.defaultPath('Roster PC-1 2026-11-22.xlsx')).toBe('Roster PC-1 2026-11-22.xlsx')
    memory.remember(join(folder, 'earlier.xlsx'))
    expect(new ExportMemory(backend).defaultPath('next.csv')).toBe(join(folder, 'next.csv'))
  })

  it('ignores what it cannot trust: relative paths and values of the wrong shape', () => {
    const backend = new MemoryKeyValueBackend()
    const memory = new ExportMemory(backend)
    memory.remember('relative/file.xlsx')
    expect(memory.defaultPath('a.xlsx')).toBe('a.xlsx')
    for (const stored of ['/tmp', { lastFolder: 'relative' }, { lastFolder: 42 }, null]) {
      backend.set('exportMemory', stored)
      expect(memory.defaultPath('a.xlsx')).toBe('a.xlsx')
    }
  })
})
