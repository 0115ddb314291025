import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ExportMemory } from '../../../../../src/main/core/export/export-memory'
import { MemoryKeyValueBackend } from '../../../../../src/main/core/settings/settings-store'

describe('ExportMemory', () => {
  const folder = join('/', 'home', 'clerk', 'Rosters')

  it('offers the bare file name until a file was written, then that file’s folder', () => {
    const backend = new MemoryKeyValueBackend()
    const memory = new ExportMemory(backend)
    expect(memory.defaultPath('p1', 'Roster PC-1 2026-11-22.xlsx')).toBe('Roster PC-1 2026-11-22.xlsx')
    memory.remember('p1', join(folder, 'earlier.xlsx'))
    expect(new ExportMemory(backend).defaultPath('p1', 'next.csv')).toBe(join(folder, 'next.csv'))
  })

  it('ignores what it cannot trust: relative paths and values of the wrong shape', () => {
    const backend = new MemoryKeyValueBackend()
    const memory = new ExportMemory(backend)
    memory.remember('p1', 'relative/file.xlsx')
    expect(memory.defaultPath('p1', 'a.xlsx')).toBe('a.xlsx')
    const shapes = [
      '/tmp',
      { lastFolder: 'relative' },
      { lastFolder: 42 },
      null,
      { folders: [folder] },
      { folders: { p1: 'relative' } },
      { folders: { p1: 7 } },
    ]
    for (const stored of shapes) {
      backend.set('exportMemory', stored)
      expect(memory.defaultPath('p1', 'a.xlsx')).toBe('a.xlsx')
    }
  })

  it('remembers each profile’s own folder (issue 33, point 7); one never offers another’s', () => {
    const backend = new MemoryKeyValueBackend()
    const memory = new ExportMemory(backend)
    const acme = join(folder, 'Acme')
    const globex = join(folder, 'Globex')
    memory.remember('p1', join(acme, 'a.xlsx'))
    memory.remember('p2', join(globex, 'b.xlsx'))
    expect(memory.defaultPath('p1', 'next.xlsx')).toBe(join(acme, 'next.xlsx'))
    expect(memory.defaultPath('p2', 'next.xlsx')).toBe(join(globex, 'next.xlsx'))
    // A third profile has none yet: the save dialog's own start, not another client's folder.
    expect(memory.defaultPath('p3', 'next.xlsx')).toBe('next.xlsx')
    expect(memory.folders().sort()).toEqual([acme, globex].sort())
    memory.forget('p2')
    expect(memory.defaultPath('p2', 'next.xlsx')).toBe('next.xlsx')
    expect(memory.defaultPath('p1', 'next.xlsx')).toBe(join(acme, 'next.xlsx'))
  })

  it('offers the folder an older release remembered for all profiles to a profile with none of its own', () => {
    const backend = new MemoryKeyValueBackend()
    backend.set('exportMemory', { lastFolder: folder })
    const memory = new ExportMemory(backend)
    expect(memory.defaultPath('p1', 'a.xlsx')).toBe(join(folder, 'a.xlsx'))
    memory.remember('p2', join(folder, 'Globex', 'b.xlsx'))
    expect(memory.defaultPath('p2', 'a.xlsx')).toBe(join(folder, 'Globex', 'a.xlsx'))
    expect(memory.folders().sort()).toEqual([folder, join(folder, 'Globex')].sort())
  })
})
