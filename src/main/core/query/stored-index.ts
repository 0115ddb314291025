import { z } from 'zod'
import type { SqliteDatabase } from '../cache/sqlite-open'
import type { SearchIndexData } from './search-index'
import { TokenIndex } from './token-index'

/**
 * The search index as rows of a snapshot's `search_index` table: one JSON part for the dictionaries and one
 * blob per typed array. Opening a snapshot then costs reading a few megabytes instead of re-indexing every row.
 */
export interface StoredIndexPart {
  readonly part: string
  readonly data: Buffer
}

const STORED_INDEX_VERSION = 1

const metaSchema = z.object({
  version: z.literal(STORED_INDEX_VERSION),
  count: z.number().int().min(0),
  statuses: z.array(z.string()),
  cycles: z.array(z.string()),
  firstTerms: z.array(z.string()),
  lastTerms: z.array(z.string()),
  nullRank: z.number().int().min(0),
})

const ARRAYS = [
  'status',
  'cycleStart',
  'cycleCodes',
  'firstStarts',
  'firstPostings',
  'lastStarts',
  'lastPostings',
  'defaultRank',
  'defaultOrder',
  'defaultRankStart',
] as const

export function storedIndexParts(index: SearchIndexData): StoredIndexPart[] {
  const first = index.firstNames.toParts()
  const last = index.lastNames.toParts()
  const meta = {
    version: STORED_INDEX_VERSION,
    count: index.ids.length,
    statuses: index.statuses,
    cycles: index.cycles,
    firstTerms: first.terms,
    lastTerms: last.terms,
    nullRank: index.defaultOrder.nullRank,
  }
  const arrays: Record<(typeof ARRAYS)[number], Uint32Array> = {
    status: index.status,
    cycleStart: index.cycleStart,
    cycleCodes: index.cycleCodes,
    firstStarts: first.starts,
    firstPostings: first.postings,
    lastStarts: last.starts,
    lastPostings: last.postings,
    defaultRank: index.defaultOrder.rank,
    defaultOrder: index.defaultOrder.order,
    defaultRankStart: index.defaultOrder.rankStart,
  }
  return [
    { part: 'meta', data: Buffer.from(JSON.stringify(meta), 'utf8') },
    { part: 'ids', data: bytesOf(index.ids) },
    ...ARRAYS.map((part) => ({ part, data: bytesOf(arrays[part]) })),
  ]
}

/** The stored index of a snapshot, or null when it has none (or one in a form this version does not read). */
export function readStoredIndex(db: SqliteDatabase): SearchIndexData | null {
  const hasTable = db
    .prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'search_index'")
    .pluck()
    .get()
  if (Number(hasTable) === 0) return null
  const parts = new Map<string, Buffer>()
  for (const row of db.prepare('SELECT part, data FROM search_index').raw().iterate()) {
    const [part, data] = row
    if (typeof part === 'string' && Buffer.isBuffer(data)) parts.set(part, data)
  }
  const metaBytes = parts.get('meta')
  const idBytes = parts.get('ids')
  if (metaBytes === undefined || idBytes === undefined) return null
  const meta = metaSchema.safeParse(JSON.parse(metaBytes.toString('utf8')))
  if (!meta.success) return null
  const arrays = new Map<string, Uint32Array>()
  for (const name of ARRAYS) {
    const bytes = parts.get(name)
    if (bytes === undefined) return null
    arrays.set(name, new Uint32Array(aligned(bytes)))
  }
  const get = (name: (typeof ARRAYS)[number]): Uint32Array => arrays.get(name) ?? new Uint32Array(0)
  const ids = new Float64Array(aligned(idBytes))
  if (ids.length !== meta.data.count || get('status').length !== meta.data.count) return null
  return {
    ids,
    status: get('status'),
    statuses: meta.data.statuses,
    cycleStart: get('cycleStart'),
    cycleCodes: get('cycleCodes'),
    cycles: meta.data.cycles,
    firstNames: TokenIndex.fromParts({
      terms: meta.data.firstTerms,
      starts: get('firstStarts'),
      postings: get('firstPostings'),
    }),
    lastNames: TokenIndex.fromParts({
      terms: meta.data.lastTerms,
      starts: get('lastStarts'),
      postings: get('lastPostings'),
    }),
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

/** A copy whose buffer starts at offset 0, as typed-array views need (Buffers may sit at any offset of a pool). */
function aligned(bytes: Buffer): ArrayBuffer {
  const copy = new Uint8Array(bytes.byteLength)
  copy.set(bytes)
  return copy.buffer
}
