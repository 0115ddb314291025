import { crc32, deflateRawSync } from 'node:zlib'

/** One file of a zip: its name inside the archive (forward slashes) and its bytes. */
export interface ZipEntry {
  readonly name: string
  readonly data: Buffer
}

const LOCAL_HEADER = 0x04034b50
const CENTRAL_HEADER = 0x02014b50
const END_OF_CENTRAL = 0x06054b50
/** Bit 11: names are UTF-8. */
const UTF8_NAMES = 0x0800
const DEFLATE = 8
const STORE = 0
/** "Version needed to extract" 2.0: deflate, no zip64. */
const VERSION = 20
/** The largest size or offset a zip without zip64 records. */
const ZIP32_LIMIT = 0xffffffff

/** DOS time and date of `at` (local time, two-second steps), as zip headers hold them. */
function dosTime(at: Date): { time: number; date: number } {
  const year = Math.max(at.getFullYear(), 1980)
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | Math.floor(at.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  }
}

/**
 * A zip archive (PKWARE APPNOTE 6.3, without zip64 or encryption) of `entries`, each deflated (stored when that
 * is no smaller), with UTF-8 names and `at` as every entry's time. Small by design: diagnostics are a few MB of
 * text, built in memory; Python's zipfile and `unzip` read what this writes (test/unit/main/core/diagnostics/).
 * Throws a RangeError past 4 GB or 65,535 entries, which a diagnostics file never reaches.
 */
export function zipArchive(entries: readonly ZipEntry[], at: Date): Buffer {
  if (entries.length > 0xffff) throw new RangeError('A zip without zip64 holds at most 65,535 entries')
  const { time, date } = dosTime(at)
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8')
    const deflated = deflateRawSync(entry.data)
    const stored = deflated.length >= entry.data.length
    const body = stored ? entry.data : deflated
    const crc = crc32(entry.data)
    if (body.length > ZIP32_LIMIT || offset > ZIP32_LIMIT) throw new RangeError('A zip over 4 GB needs zip64')
    const local = Buffer.alloc(30)
    local.writeUInt32LE(LOCAL_HEADER, 0)
    local.writeUInt16LE(VERSION, 4)
    local.writeUInt16LE(UTF8_NAMES, 6)
    local.writeUInt16LE(stored ? STORE : DEFLATE, 8)
    local.writeUInt16LE(time, 10)
    local.writeUInt16LE(date, 12)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(entry.data.length, 22)
    local.writeUInt16LE(name.length, 26)
    local.writeUInt16LE(0, 28)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(CENTRAL_HEADER, 0)
    // Made by: Unix (3), so the 0600 mode below counts; version 2.0.
    central.writeUInt16LE((3 << 8) | VERSION, 4)
    central.writeUInt16LE(VERSION, 6)
    central.writeUInt16LE(UTF8_NAMES, 8)
    central.writeUInt16LE(stored ? STORE : DEFLATE, 10)
    central.writeUInt16LE(time, 12)
    central.writeUInt16LE(date, 14)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(body.length, 20)
    central.writeUInt32LE(entry.data.length, 24)
    central.writeUInt16LE(name.length, 28)
    // Extra field, comment, disk number, internal attributes: none, 0.
    // External attributes: a regular file readable by its owner only (0100600), as RosterDesk's own files are.
    central.writeUInt32LE((0o100600 << 16) >>> 0, 38)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, body)
    centrals.push(central, name)
    offset += local.length + name.length + body.length
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0)
  if (offset + centralSize > ZIP32_LIMIT) throw new RangeError('A zip over 4 GB needs zip64')
  const end = Buffer.alloc(22)
  end.writeUInt32LE(END_OF_CENTRAL, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(centralSize, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, ...centrals, end])
}
