import { describe, expect, it } from 'vitest'
import { dataDirFlag } from '../../../../src/main/cli/data-dir'

describe('the data folder a command line names', () => {
  it('reads --data-dir DIR and --data-dir=DIR, the last counting, and nothing after --', () => {
    expect(dataDirFlag(['sync', '--profile', 'Acme', '--data-dir', '/d/one'])).toBe('/d/one')
    expect(dataDirFlag(['--data-dir=/d/one', '--data-dir', '/d/two'])).toBe('/d/two')
    expect(dataDirFlag(['--data-dir', '/d/one', '--', '--data-dir', '/d/two'])).toBe('/d/one')
    expect(dataDirFlag(['export', '--db', 'x.sqlite'])).toBeUndefined()
  })
})
