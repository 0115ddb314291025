import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  planLogRotation,
  rotateLogFiles,
  rotatedLogPath,
} from '../../../../../src/main/core/log/log-rotation'

describe('log rotation', () => {
  const dirs: string[] = []
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))

  it('names the older copies main.1.log, main.2.log, …', () => {
    expect(rotatedLogPath(join('logs', 'main.log'), 0)).toBe(join('logs', 'main.log'))
    expect(rotatedLogPath(join('logs', 'main.log'), 1)).toBe(join('logs', 'main.1.log'))
    expect(rotatedLogPath(join('logs', 'main.log'), 3)).toBe(join('logs', 'main.3.log'))
  })

  it('drops the oldest copy first, then moves each one place older, oldest first', () => {
    expect(planLogRotation('main.log', 3)).toEqual([
      { kind: 'remove', path: 'main.3.log' },
      { kind: 'rename', from: 'main.2.log', to: 'main.3.log' },
      { kind: 'rename', from: 'main.1.log', to: 'main.2.log' },
      { kind: 'rename', from: 'main.log', to: 'main.1.log' },
    ])
    expect(() => planLogRotation('main.log', 0)).toThrow(RangeError)
  })

  it('rotates on disk, skipping copies that do not exist yet and keeping at most `keep`', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-logs-'))
    dirs.push(dir)
    const live = join(dir, 'main.log')
    writeFileSync(live, 'newest')
    writeFileSync(join(dir, 'main.2.log'), 'older')
    writeFileSync(join(dir, 'main.3.log'), 'oldest')

    rotateLogFiles(live, 3)
    expect(readdirSync(dir).sort()).toEqual(['main.1.log', 'main.3.log'])
    expect(readFileSync(join(dir, 'main.1.log'), 'utf8')).toBe('newest')
    expect(readFileSync(join(dir, 'main.3.log'), 'utf8')).toBe('older')

    writeFileSync(live, 'newer still')
    rotateLogFiles(live, 1)
    expect(readdirSync(dir).sort()).toEqual(['main.1.log', 'main.3.log'])
    expect(readFileSync(join(dir, 'main.1.log'), 'utf8')).toBe('newer still')
  })
})
