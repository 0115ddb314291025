import { once } from 'node:events'
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { BatchedWritable } from '../../../../../src/main/core/export/batched-writable'

/** A target that records each write it is handed, and can be told to fail. */
function recordingTarget(options: { failAt?: number } = {}): { target: Writable; writes: Buffer[] } {
  const writes: Buffer[] = []
  const target = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (options.failAt !== undefined && writes.length === options.failAt) {
        done(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))
        return
      }
      writes.push(Buffer.from(chunk))
      setImmediate(done)
    },
  })
  return { target, writes }
}

describe('BatchedWritable', () => {
  it('hands the target batches of at least the batch size, the rest when it ends, and ends the target', async () => {
    const { target, writes } = recordingTarget()
    const batched = new BatchedWritable(target, 100)
    const expected: string[] = []
    for (let index = 0; index < 50; index++) {
      const piece = `piece ${index};`
      expected.push(piece)
      if (!batched.write(piece)) await once(batched, 'drain')
    }
    batched.end()
    await once(target, 'finish')
    expect(Buffer.concat(writes).toString()).toBe(expected.join(''))
    expect(writes.slice(0, -1).every((write) => write.length >= 100)).toBe(true)
    expect(writes.length).toBeLessThan(expected.join('').length / 100 + 1)
    expect(batched.writableFinished).toBe(true)
  })

  it("fails with the target's error, and both streams are destroyed", async () => {
    const { target } = recordingTarget({ failAt: 1 })
    const batched = new BatchedWritable(target, 10)
    const failed = once(batched, 'error')
    for (let index = 0; index < 10; index++) batched.write('0123456789')
    const [error] = (await failed) as [NodeJS.ErrnoException]
    expect(error.code).toBe('ENOSPC')
    expect(batched.destroyed).toBe(true)
    expect(target.destroyed).toBe(true)
  })

  it('destroys the target when destroyed (a cancel)', async () => {
    const { target, writes } = recordingTarget()
    const batched = new BatchedWritable(target, 1000)
    batched.write('held back')
    expect(batched.heldBytes).toBe(9)
    batched.destroy()
    await once(target, 'close')
    expect(target.destroyed).toBe(true)
    expect(writes).toEqual([])
  })

  it('counts each byte it holds once: a batch handed to the target is the target’s to count', async () => {
    let release: () => void = () => undefined
    const target = new Writable({
      write(_chunk: Buffer, _encoding, done) {
        release = done
      },
    })
    const batched = new BatchedWritable(target, 100)
    batched.write('a'.repeat(60))
    expect(batched.heldBytes).toBe(60)
    // 120 bytes reach the batch size: handed to the target, which now holds them.
    batched.write('b'.repeat(60))
    expect(target.writableLength).toBe(120)
    expect(batched.heldBytes).toBe(0)
    // Queued behind that batch: held here.
    batched.write('c'.repeat(30))
    expect(batched.heldBytes).toBe(30)
    release()
    await new Promise((resolve) => setImmediate(resolve))
    expect(batched.heldBytes).toBe(30)
    batched.destroy()
  })
})
