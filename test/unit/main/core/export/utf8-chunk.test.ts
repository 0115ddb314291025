import { describe, expect, it } from 'vitest'
import { Utf8Chunk } from '../../../../../src/main/core/export/utf8-chunk'

describe('Utf8Chunk', () => {
  it('gathers text as UTF-8 and empties on take', () => {
    const chunk = new Utf8Chunk(64)
    expect(chunk.append('<t>Zoë</t>')).toBe(true)
    expect(chunk.append('<t>李🙂</t>')).toBe(true)
    expect(chunk.size).toBe(Buffer.byteLength('<t>Zoë</t><t>李🙂</t>'))
    expect(chunk.take().toString('utf8')).toBe('<t>Zoë</t><t>李🙂</t>')
    expect(chunk.size).toBe(0)
    expect(chunk.take().length).toBe(0)
  })

  it('refuses, whole, text that might not fit, judging by three bytes per UTF-16 unit', () => {
    const chunk = new Utf8Chunk(30)
    expect(chunk.append('0123456789')).toBe(true)
    // 7 units could need 21 bytes; 20 are left: refused although this ASCII text would fit.
    expect(chunk.append('abcdefg')).toBe(false)
    expect(chunk.size).toBe(10)
    expect(chunk.append('李李李李李李')).toBe(true)
    expect(chunk.size).toBe(28)
    expect(chunk.take().toString('utf8')).toBe('0123456789李李李李李李')
    // Longer than the whole buffer can ever hold: the caller writes it on its own.
    expect(chunk.append('x'.repeat(11))).toBe(false)
  })

  it('reuses one buffer: what take() returned is overwritten by later appends', () => {
    const chunk = new Utf8Chunk(16)
    chunk.append('first')
    const taken = chunk.take()
    const copy = Buffer.from(taken)
    chunk.append('AAAAA')
    expect(copy.toString()).toBe('first')
    expect(taken.toString()).toBe('AAAAA')
  })
})
