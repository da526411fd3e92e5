import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

// Kysely's SQLite driver calls `prepare(sql)` for every query, and preparing costs more than running the small
// queries of this service. Prepared statements are reusable as long as no iteration is open on them; the service
// never streams (`all`/`run` finish synchronously), so one statement per SQL text is safe.
const MAX_STATEMENTS = 1000;

/** Wraps a better-sqlite3 handle so each distinct SQL text is prepared once (bounded; oldest dropped first). */
export function cachingDatabase(db: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      statements.clear();
      db.close();
    },
    prepare(sql: string): SqliteStatement {
      let stmt = statements.get(sql);
      if (stmt === undefined) {
        stmt = db.prepare(sql) as unknown as SqliteStatement;
        // IN lists of varying length make many texts; the bound keeps memory flat under any mix of filters.
        if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
        statements.set(sql, stmt);
      }
      return stmt;
    },
  };
}
