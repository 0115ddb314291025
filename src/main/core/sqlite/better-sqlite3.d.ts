/**
 * The part of better-sqlite3's API RosterDesk uses. The package ships no types and @types/better-sqlite3 is not
 * a dependency, so this declaration is the contract; it mirrors better-sqlite3 13.x.
 */
declare module 'better-sqlite3-multiple-ciphers' {
  namespace Database {
    type BindValue = string | number | bigint | Buffer | null

    interface RunResult {
      changes: number
      lastInsertRowid: number | bigint
    }

    interface Statement<Row = unknown> {
      readonly reader: boolean
      run(...params: unknown[]): RunResult
      get(...params: unknown[]): Row | undefined
      all(...params: unknown[]): Row[]
      iterate(...params: unknown[]): IterableIterator<Row>
      pluck(toggle?: boolean): Statement<unknown>
      raw(toggle?: boolean): Statement<unknown[]>
      columns(): Array<{ name: string }>
    }

    interface Transaction<F extends (...args: never[]) => unknown> {
      (...args: Parameters<F>): ReturnType<F>
      immediate(...args: Parameters<F>): ReturnType<F>
      exclusive(...args: Parameters<F>): ReturnType<F>
    }

    interface Options {
      readonly?: boolean
      fileMustExist?: boolean
      /** Milliseconds to wait on a locked database; 0 fails at once with SQLITE_BUSY. */
      timeout?: number
    }

    interface Database {
      readonly name: string
      readonly open: boolean
      readonly inTransaction: boolean
      readonly readonly: boolean
      prepare<Row = unknown>(sql: string): Statement<Row>
      exec(sql: string): this
      pragma(sql: string, options?: { simple?: boolean }): unknown
      transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F>
      close(): this
      /** Lifts SQLite's defensive mode (which refuses journal_mode = OFF) until called with false. */
      unsafeMode(on?: boolean): this
    }

    interface SqliteError extends Error {
      code: string
    }
  }

  interface DatabaseConstructor {
    new (filename: string, options?: Database.Options): Database.Database
    SqliteError: new (message: string, code: string) => Database.SqliteError
  }

  const Database: DatabaseConstructor
  export = Database
}
