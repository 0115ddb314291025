import { execFileSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A real, small file system for disk-full tests: a tmpfs mounted on a fresh folder. Needs root (or
 * CAP_SYS_ADMIN); `canMountSmallVolume()` says whether this machine allows it, so the tests say they are skipped
 * rather than pass without testing anything.
 */
export interface SmallVolume {
  readonly path: string
  /** Writes a filler file until fewer than `leaveBytes` are free; returns its path. */
  fill(leaveBytes: number): string
  unmount(): void
}

let probed: boolean | undefined

export function canMountSmallVolume(): boolean {
  if (probed !== undefined) return probed
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return (probed = false)
  try {
    const volume = mountSmallVolume(64 * 1024)
    volume.unmount()
    return (probed = true)
  } catch {
    return (probed = false)
  }
}

export function mountSmallVolume(sizeBytes: number): SmallVolume {
  const path = mkdtempSync(join(tmpdir(), 'rosterdesk-small-volume-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', path], { stdio: 'pipe' })
  } catch (error) {
    rmSync(path, { recursive: true, force: true })
    throw error
  }
  let fillers = 0
  return {
    path,
    fill(leaveBytes) {
      const filler = join(path, `.filler-${fillers++}`)
      const fd = openSync(filler, 'w')
      const chunk = Buffer.alloc(4096, 0x5a)
      try {
        for (;;) {
          try {
            writeSync(fd, chunk)
          } catch {
            break
          }
        }
      } finally {
        closeSync(fd)
      }
      // Give back all but `leaveBytes`: the space a small write still finds, a large one does not.
      truncateSync(filler, Math.max(0, statSync(filler).size - leaveBytes))
      return filler
    },
    unmount() {
      execFileSync('umount', [path], { stdio: 'pipe' })
      rmSync(path, { recursive: true, force: true })
    },
  }
}
