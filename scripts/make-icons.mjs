// Draws RosterDesk's app icon and writes resources/icon.png (1024x1024, macOS and Linux; electron-builder makes the
// .icns from it) and resources/icon.ico (Windows: 16 to 256 px). Pure Node (zlib), so anyone can regenerate the
// committed icons without an image editor or ImageMagick:
//   node scripts/make-icons.mjs           write the icons
//   node scripts/make-icons.mjs --check   exit 1 when the committed icons' pixels differ from what this draws
// The drawing is signed-distance shapes with analytic anti-aliasing, using only + - * / and sqrt (exactly rounded
// in every JavaScript engine), so the pixels are the same on every machine; --check compares decoded pixels, not
// bytes, because zlib's output may differ between Node versions.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { deflateSync, inflateSync } from 'node:zlib'

const RESOURCES = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources')
const PNG_PATH = join(RESOURCES, 'icon.png')
const ICO_PATH = join(RESOURCES, 'icon.ico')
const PNG_SIZE = 1024
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256]

const TOP = [72, 140, 209] // calm blue, lighter at the top ...
const BOTTOM = [36, 94, 165] // ... and deeper at the bottom, as light from above reads on both light and dark docks
const GLYPH = [255, 255, 255]

const clamp01 = (x) => (x < 0 ? 0 : x > 1 ? 1 : x)

/** Signed distance from (px, py) to a rounded rectangle centred at (cx, cy); negative inside. */
function roundedRect(px, py, cx, cy, halfW, halfH, radius) {
  const qx = Math.abs(px - cx) - halfW + radius
  const qy = Math.abs(py - cy) - halfH + radius
  const ox = Math.max(qx, 0)
  const oy = Math.max(qy, 0)
  return Math.sqrt(ox * ox + oy * oy) + Math.min(Math.max(qx, qy), 0) - radius
}

function circle(px, py, cx, cy, r) {
  const dx = px - cx
  const dy = py - cy
  return Math.sqrt(dx * dx + dy * dy) - r
}

/**
 * The glyph: a roster, three people as a round "head" and a name line each. Small icons get two heavier rows
 * placed on whole pixels (in pixels of the body, divided by its size), because one-pixel marks between pixels
 * blur into a grey smear at 16 px.
 */
function glyphRows(bodyPx) {
  const px = (n) => n / bodyPx
  if (bodyPx <= 16) {
    return [
      { v: px(5), dotU: px(4), dotR: px(1.15), lineFrom: px(7), lineTo: px(13), lineHalf: px(1) },
      { v: px(11), dotU: px(4), dotR: px(1.15), lineFrom: px(7), lineTo: px(11), lineHalf: px(1) },
    ]
  }
  if (bodyPx <= 24) {
    return [
      { v: px(8), dotU: px(6), dotR: px(1.9), lineFrom: px(10), lineTo: px(19), lineHalf: px(1) },
      { v: px(16), dotU: px(6), dotR: px(1.9), lineFrom: px(10), lineTo: px(16), lineHalf: px(1) },
    ]
  }
  const small = bodyPx < 40
  const rows = small ? [0.33, 0.67] : [0.3, 0.5, 0.7]
  const lineEnds = small ? [0.78, 0.7] : [0.76, 0.76, 0.64]
  return rows.map((v, i) => ({
    v,
    dotU: 0.3,
    dotR: small ? 0.1 : 0.062,
    lineFrom: small ? 0.46 : 0.43,
    lineTo: lineEnds[i],
    lineHalf: small ? 0.065 : 0.036,
  }))
}

/**
 * Renders the icon at `size` px as straight-alpha RGBA. `margin` is the transparent border as a fraction of the
 * size: macOS icons sit inside Apple's 824/1024 grid with room for a shadow, Windows icons fill their square.
 */
export function renderIcon(size, { margin, shadow }) {
  const pixels = Buffer.alloc(size * size * 4)
  const inset = size * margin
  const body = size - 2 * inset
  const half = body / 2
  const centre = size / 2
  const radius = body * 0.225
  const rows = glyphRows(body)
  const shadowOffset = body * 0.012
  const shadowBlur = body * 0.03

  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const px = x + 0.5
      const py = y + 0.5
      // Premultiplied colour, composited back to front: shadow, body, glyph.
      let r = 0
      let g = 0
      let b = 0
      let a = 0

      const dBody = roundedRect(px, py, centre, centre, half, half, radius)
      if (shadow) {
        const dShadow = roundedRect(px, py - shadowOffset, centre, centre, half, half, radius)
        const t = clamp01(1 - dShadow / shadowBlur)
        a = 0.28 * t * t
      }

      const cover = clamp01(0.5 - dBody)
      if (cover > 0) {
        const t = clamp01((py - inset) / body)
        const br = TOP[0] + (BOTTOM[0] - TOP[0]) * t
        const bg = TOP[1] + (BOTTOM[1] - TOP[1]) * t
        const bb = TOP[2] + (BOTTOM[2] - TOP[2]) * t
        r = br * cover + r * (1 - cover)
        g = bg * cover + g * (1 - cover)
        b = bb * cover + b * (1 - cover)
        a = cover + a * (1 - cover)

        const u = (px - inset) / body
        const v = (py - inset) / body
        let dGlyph = Infinity
        for (const row of rows) {
          const dDot = circle(u, v, row.dotU, row.v, row.dotR)
          const lineHalfW = (row.lineTo - row.lineFrom) / 2
          const dLine = roundedRect(
            u,
            v,
            row.lineFrom + lineHalfW,
            row.v,
            lineHalfW,
            row.lineHalf,
            row.lineHalf,
          )
          dGlyph = Math.min(dGlyph, dDot, dLine)
        }
        // The glyph lies inside the body, so its coverage is also limited by the body's edge.
        const glyphCover = Math.min(clamp01(0.5 - dGlyph * body), cover)
        r = GLYPH[0] * glyphCover + r * (1 - glyphCover)
        g = GLYPH[1] * glyphCover + g * (1 - glyphCover)
        b = GLYPH[2] * glyphCover + b * (1 - glyphCover)
      }

      const i = (y * size + x) * 4
      if (a > 0) {
        pixels[i] = Math.round(r / a)
        pixels[i + 1] = Math.round(g / a)
        pixels[i + 2] = Math.round(b / a)
        pixels[i + 3] = Math.round(a * 255)
      }
    }
  }
  return pixels
}

const crcTable = new Int32Array(256).map((_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c
})

function crc32(buffer) {
  let c = -1
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ -1) >>> 0
}

function chunk(type, data) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** An 8-bit RGBA PNG; every row uses the Sub filter, which turns the flat runs of an icon into zeros. */
export function encodePng(size, pixels) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8 // bit depth
  header[9] = 6 // RGBA
  const stride = size * 4
  const raw = Buffer.alloc((stride + 1) * size)
  for (let y = 0; y < size; y++) {
    const out = y * (stride + 1)
    raw[out] = 1
    for (let i = 0; i < stride; i++) {
      const left = i >= 4 ? pixels[y * stride + i - 4] : 0
      raw[out + 1 + i] = (pixels[y * stride + i] - left) & 0xff
    }
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** Decodes the 8-bit RGBA PNGs this script writes (any filter), for --check. */
export function decodePng(file) {
  if (!file.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG')
  let offset = 8
  let width = 0
  let height = 0
  const idat = []
  while (offset < file.length) {
    const length = file.readUInt32BE(offset)
    const type = file.toString('ascii', offset + 4, offset + 8)
    const data = file.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      if (data[8] !== 8 || data[9] !== 6 || data[12] !== 0)
        throw new Error('expected a non-interlaced RGBA8 PNG')
    } else if (type === 'IDAT') idat.push(data)
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(idat))
  const stride = width * 4
  const pixels = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    for (let i = 0; i < stride; i++) {
      const value = raw[y * (stride + 1) + 1 + i]
      const a = i >= 4 ? pixels[y * stride + i - 4] : 0
      const b = y > 0 ? pixels[(y - 1) * stride + i] : 0
      const c = i >= 4 && y > 0 ? pixels[(y - 1) * stride + i - 4] : 0
      let predicted = 0
      if (filter === 1) predicted = a
      else if (filter === 2) predicted = b
      else if (filter === 3) predicted = (a + b) >> 1
      else if (filter === 4) {
        const p = a + b - c
        const pa = Math.abs(p - a)
        const pb = Math.abs(p - b)
        const pc = Math.abs(p - c)
        predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
      }
      pixels[y * stride + i] = (value + predicted) & 0xff
    }
  }
  return { width, height, pixels }
}

/**
 * A 32-bit DIB icon image (BITMAPINFOHEADER, bottom-up BGRA, then the 1-bit AND mask, all zero because the alpha
 * channel says what is transparent). Used below 256 px, where some Windows tools still expect bitmaps.
 */
function encodeDib(size, pixels) {
  const header = Buffer.alloc(40)
  header.writeUInt32LE(40, 0)
  header.writeInt32LE(size, 4)
  header.writeInt32LE(size * 2, 8) // XOR bitmap plus AND mask
  header.writeUInt16LE(1, 12)
  header.writeUInt16LE(32, 14)
  const xor = Buffer.alloc(size * size * 4)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const from = (y * size + x) * 4
      const to = ((size - 1 - y) * size + x) * 4
      xor[to] = pixels[from + 2]
      xor[to + 1] = pixels[from + 1]
      xor[to + 2] = pixels[from]
      xor[to + 3] = pixels[from + 3]
    }
  }
  const maskStride = Math.ceil(size / 32) * 4
  header.writeUInt32LE(xor.length + maskStride * size, 20)
  return Buffer.concat([header, xor, Buffer.alloc(maskStride * size)])
}

function decodeDib(data) {
  const size = data.readInt32LE(4)
  const pixels = Buffer.alloc(size * size * 4)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const from = 40 + ((size - 1 - y) * size + x) * 4
      const to = (y * size + x) * 4
      pixels[to] = data[from + 2]
      pixels[to + 1] = data[from + 1]
      pixels[to + 2] = data[from]
      pixels[to + 3] = data[from + 3]
    }
  }
  return { width: size, height: size, pixels }
}

/** An ICO holding every size in ICO_SIZES: bitmaps, and PNG for 256 px as Windows Vista and later expect. */
export function encodeIco(images) {
  const directory = Buffer.alloc(6 + 16 * images.length)
  directory.writeUInt16LE(0, 0)
  directory.writeUInt16LE(1, 2) // icon
  directory.writeUInt16LE(images.length, 4)
  let offset = directory.length
  const blobs = images.map(({ size, pixels }, index) => {
    const blob = size >= 256 ? encodePng(size, pixels) : encodeDib(size, pixels)
    const entry = 6 + 16 * index
    directory[entry] = size >= 256 ? 0 : size // 0 means 256
    directory[entry + 1] = size >= 256 ? 0 : size
    directory.writeUInt16LE(1, entry + 4) // colour planes
    directory.writeUInt16LE(32, entry + 6) // bits per pixel
    directory.writeUInt32LE(blob.length, entry + 8)
    directory.writeUInt32LE(offset, entry + 12)
    offset += blob.length
    return blob
  })
  return Buffer.concat([directory, ...blobs])
}

export function decodeIco(file) {
  const count = file.readUInt16LE(4)
  const images = []
  for (let index = 0; index < count; index++) {
    const entry = 6 + 16 * index
    const length = file.readUInt32LE(entry + 8)
    const start = file.readUInt32LE(entry + 12)
    const data = file.subarray(start, start + length)
    images.push(data.subarray(0, 8).equals(PNG_SIGNATURE) ? decodePng(data) : decodeDib(data))
  }
  return images
}

const MAC = { margin: 100 / 1024, shadow: true }
const WINDOWS = { margin: 1 / 32, shadow: false }
// At 16 and 24 px a fractional border would blur every edge, so the square fills the icon.
const WINDOWS_SMALL = { margin: 0, shadow: false }

function drawAll() {
  return {
    png: { width: PNG_SIZE, height: PNG_SIZE, pixels: renderIcon(PNG_SIZE, MAC) },
    ico: ICO_SIZES.map((size) => ({ size, pixels: renderIcon(size, size <= 24 ? WINDOWS_SMALL : WINDOWS) })),
  }
}

function check() {
  const drawn = drawAll()
  const problems = []
  const png = decodePng(readFileSync(PNG_PATH))
  if (png.width !== PNG_SIZE || !png.pixels.equals(drawn.png.pixels)) problems.push('resources/icon.png')
  const ico = decodeIco(readFileSync(ICO_PATH))
  const same =
    ico.length === drawn.ico.length &&
    ico.every((image, i) => image.width === drawn.ico[i].size && image.pixels.equals(drawn.ico[i].pixels))
  if (!same) problems.push('resources/icon.ico')
  if (problems.length > 0) {
    console.error(
      `${problems.join(' and ')} differ from scripts/make-icons.mjs; run it and commit the result`,
    )
    process.exit(1)
  }
  console.log('icons are up to date')
}

function write() {
  const drawn = drawAll()
  writeFileSync(PNG_PATH, encodePng(PNG_SIZE, drawn.png.pixels))
  writeFileSync(ICO_PATH, encodeIco(drawn.ico))
  console.log(`wrote ${PNG_PATH} and ${ICO_PATH}`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) check()
  else write()
}
