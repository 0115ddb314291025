import type Database from 'better-sqlite3-multiple-ciphers'
import type { SqliteDatabase } from './sqlite-open'

/** Each connection's kept statements, by SQL text; plain (`rows`) and plucked (`values`) ones apart. */
interface Kept {
  readonly rows: Map<string, Database.Statement>
  readonly values: Map<string, Database.Statement>
}

const keptByConnection = new WeakMap<SqliteDatabase, Kept>()

function keptOf(db: SqliteDatabase): Kept {
  let kept = keptByConnection.get(db)
  if (kept === undefined) {
    kept = { rows: new Map(), values: new Map() }
    keptByConnection.set(db, kept)
  }
  return kept
}

/**
 * `db.prepare(sql)`, prepared once per connection and kept for the connection's life (and dropped with it).
 * Preparing parses and plans the SQL every time, about 0.1 ms on the catalog: the status a window polls, and the
 * profile list, read the catalog several times per call. SQLite re-prepares a kept statement itself when the
 * schema changes. Only for `get`, `all` and `run`: a statement being iterated is busy until the iteration ends,
 * so an `iterate` must prepare its own. The statement returns rows (never plucked; `preparedValue` is the
 * plucked one).
 */
export function prepared<Row = unknown>(db: SqliteDatabase, sql: string): Database.Statement<Row> {
  const rows = keptOf(db).rows
  let statement = rows.get(sql)
  if (statement === undefined) {
    statement = db.prepare(sql)
    rows.set(sql, statement)
  }
  return statement as Database.Statement<Row>
}

/** `db.prepare(sql).pluck()`, kept per connection as `prepared` keeps statements: it returns each row's first column. */
export function preparedValue(db: SqliteDatabase, sql: string): Database.Statement {
  const values = keptOf(db).values
  let statement = values.get(sql)
  if (statement === undefined) {
    statement = db.prepare(sql).pluck()
    values.set(sql, statement)
  }
  return statement
}
