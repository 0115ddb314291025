import { z } from 'zod'
import type { IdentifierIndex, SearchIndexData } from './search-index-data'
import { TokenIndex, termTextBytes, termTextFromBytes } from './token-index'
import type { TokenIndexParts } from './token-index'

/**
 * The search index as rows of a snapshot's `search_index` table: one JSON part for the small dictionaries and
 * one blob per typed array or term text. Opening a snapshot then costs reading a few blobs instead of
 * re-indexing every row.
 */
export interface StoredIndexPart {
  readonly part: string
  readonly data: Buffer
}

/**
 * Bumped whenever what is indexed changes, not only the layout: an index of another version is ignored and the
 * snapshot re-indexed from its rows (search-index.ts), so an older cache answers with today's rules.
 * 2: identifier columns, transliteration keys, term texts as blobs.
 */
export const STORED_INDEX_VERSION = 2

const metaSchema = z.object({
  version: z.literal(STORED_INDEX_VERSION),
  count: z.number().int().min(0),
  statuses: z.array(z.string()),
  cycles: z.array(z.string()),
  nullRank: z.number().int().min(0),
  /** Each term text's encoding: latin1 when every character fits a byte, else utf16le (both exact). */
  textEncodings: z.record(z.string(), z.enum(['latin1', 'utf16le'])),
  identifiers: z.array(
    z.object({
      key: z.string(),
      role: z.enum(['number', 'email']),
      maxLeadingZeros: z.number().int().min(0).max(64),
    }),
  ),
})

const ARRAYS = [
  'status',
  'cycleStart',
  'cycleCodes',
  'defaultRank',
  'defaultOrder',
  'defaultRankStart',
] as const
const TOKEN_PARTS = ['offsets', 'starts', 'postings'] as const

/** Part-name prefixes of the token indexes: the two name indexes, then `id<n>` per identifier column. */
function tokenIndexNames(identifierCount: number): string[] {
  return ['first', 'last', ...Array.from({ length: identifierCount }, (_, i) => `id${i}`)]
}

export function storedIndexParts(index: SearchIndexData): StoredIndexPart[] {
  const tokenIndexes = [
    index.firstNames,
    index.lastNames,
    ...index.identifiers.map((column) => column.tokens),
  ]
  const names = tokenIndexNames(index.identifiers.length)
  const textEncodings: Record<string, 'latin1' | 'utf16le'> = {}
  const tokenParts: StoredIndexPart[] = []
  tokenIndexes.forEach((tokens, i) => {
    const name = names[i] ?? ''
    const parts = tokens.toParts()
    // latin1 halves the bytes of the usual all-ASCII identifiers; wider characters need two bytes each.
    const { encoding, data } = termTextBytes(parts.text)
    textEncodings[name] = encoding
    tokenParts.push({ part: `${name}.text`, data })
    for (const array of TOKEN_PARTS)
      tokenParts.push({ part: `${name}.${array}`, data: bytesOf(parts[array]) })
  })
  const meta: z.infer<typeof metaSchema> = {
    version: STORED_INDEX_VERSION,
    count: index.ids.length,
    statuses: [...index.statuses],
    cycles: [...index.cycles],
    nullRank: index.defaultOrder.nullRank,
    textEncodings,
    identifiers: index.identifiers.map((column) => ({
      key: column.key,
      role: column.role,
      maxLeadingZeros: column.maxLeadingZeros,
    })),
  }
  const arrays: Record<(typeof ARRAYS)[number], Uint32Array> = {
    status: index.status,
    cycleStart: index.cycleStart,
    cycleCodes: index.cycleCodes,
    defaultRank: index.defaultOrder.rank,
    defaultOrder: index.defaultOrder.order,
    defaultRankStart: index.defaultOrder.rankStart,
  }
  return [
    { part: 'meta', data: Buffer.from(JSON.stringify(meta), 'utf8') },
    { part: 'ids', data: bytesOf(index.ids) },
    ...ARRAYS.map((part) => ({ part, data: bytesOf(arrays[part]) })),
    ...tokenParts,
  ]
}

/**
 * The stored index of a snapshot, or null when it has none, or one this version does not read (an older
 * version's, or damaged): the caller then indexes the snapshot's rows.
 */
export function decodeStoredIndex(parts: ReadonlyMap<string, Buffer> | null): SearchIndexData | null {
  if (parts === null) return null
  const metaBytes = parts.get('meta')
  const idBytes = parts.get('ids')
  if (metaBytes === undefined || idBytes === undefined) return null
  const meta = metaSchema.safeParse(JSON.parse(metaBytes.toString('utf8')))
  if (!meta.success) return null
  const { count } = meta.data
  const arrays = new Map<string, Uint32Array>()
  for (const name of ARRAYS) {
    const bytes = parts.get(name)
    if (bytes === undefined) return null
    arrays.set(name, uint32s(bytes))
  }
  const get = (name: (typeof ARRAYS)[number]): Uint32Array => arrays.get(name) ?? new Uint32Array(0)
  const ids = new Float64Array(aligned(idBytes))
  if (ids.length !== count || get('status').length !== count) return null
  const tokenIndexes: TokenIndex[] = []
  for (const name of tokenIndexNames(meta.data.identifiers.length)) {
    const encoding = meta.data.textEncodings[name]
    const text = parts.get(`${name}.text`)
    const offsets = parts.get(`${name}.offsets`)
    const starts = parts.get(`${name}.starts`)
    const postings = parts.get(`${name}.postings`)
    if (encoding === undefined || text === undefined || offsets === undefined) return null
    if (starts === undefined || postings === undefined) return null
    const units = termTextFromBytes(text, encoding)
    if (units === null) return null
    const tokenParts: TokenIndexParts = {
      text: units,
      offsets: uint32s(offsets),
      starts: uint32s(starts),
      postings: uint32s(postings),
    }
    const tokens = TokenIndex.fromParts(tokenParts, count)
    if (tokens === null) return null
    tokenIndexes.push(tokens)
  }
  const [firstNames, lastNames, ...identifierTokens] = tokenIndexes
  if (firstNames === undefined || lastNames === undefined) return null
  const identifiers: IdentifierIndex[] = []
  for (const [i, column] of meta.data.identifiers.entries()) {
    const tokens = identifierTokens[i]
    if (tokens === undefined) return null
    identifiers.push({ key: column.key, role: column.role, maxLeadingZeros: column.maxLeadingZeros, tokens })
  }
  return {
    ids,
    status: get('status'),
    statuses: meta.data.statuses,
    cycleStart: get('cycleStart'),
    cycleCodes: get('cycleCodes'),
    cycles: meta.data.cycles,
    firstNames,
    lastNames,
    identifiers,
    defaultOrder: {
      rank: get('defaultRank'),
      order: get('defaultOrder'),
      rankStart: get('defaultRankStart'),
      nullRank: meta.data.nullRank,
    },
  }
}

function bytesOf(array: Uint32Array | Float64Array): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength)
}

/** The blob as 32-bit integers: a view when its bytes are aligned (large blobs are), else an aligned copy. */
function uint32s(bytes: Buffer): Uint32Array {
  if (bytes.byteOffset % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)
  return new Uint32Array(aligned(bytes))
}

/** A copy whose buffer starts at offset 0, as typed-array views need (Buffers may sit at any offset of a pool). */
function aligned(bytes: Buffer): ArrayBuffer {
  const copy = new Uint8Array(bytes.byteLength)
  copy.set(bytes)
  return copy.buffer
}
