// Secret columns sealed with the server key: the store functions that write them seal, those that read them open.
import { CollabError } from '../../core/errors.js'
import { SEALED_PREFIX, type SecretBox } from '../../core/secret-box.js'
import { stmt, write, type Db } from './db.js'
import { commitGroup, transaction } from './writes.js'

/** Every column holding a secret the API shows again or sends on: table, column, and the columns that key a row. */
export const SEALED_COLUMNS = [
  ['ci_variables', 'value', ['id']],
  ['ci_group_variables', 'value', ['id']],
  ['ci_instance_variables', 'value', ['id']],
  // Variables given to one pipeline (by a trigger, the API or the web form), as Ci::PipelineVariable keeps them.
  ['pipeline_variables', 'value', ['pipeline_id', 'key']],
  ['ci_triggers', 'token', ['id']],
  ['web_hooks', 'token', ['id']],
  // GitLab keeps these encrypted too: URL variables carry credentials for the URL, headers carry API keys.
  ['web_hooks', 'url_variables', ['id']],
  ['web_hooks', 'custom_headers', ['id']],
  // A push mirror's user and password, taken out of its URL as GitLab's RemoteMirror keeps them (attr_encrypted).
  ['remote_mirrors', 'credentials', ['id']],
] as const

const KEY_CHECK = 'collab server key'

// Kept per connection, as the statement cache and write state are: store functions take `db` and nothing else.
const boxes = new WeakMap<Db, SecretBox>()

function boxOf(db: Db): SecretBox {
  const box = boxes.get(db)
  if (!box) throw new Error('this connection has no server key (open the database through boot())')
  return box
}

export const sealSecret = (db: Db, plain: string) => boxOf(db).seal(plain)

export function sealNullable(db: Db, plain: string | null | undefined): string | null | undefined {
  return typeof plain === 'string' ? boxOf(db).seal(plain) : plain
}

/** The row with its secret column opened; rows without a value in it come back as they are. */
export function opened<T extends object>(db: Db, column: keyof T, row: T): T {
  const value = row[column] as unknown
  return typeof value === 'string' ? { ...row, [column]: boxOf(db).open(value) } : row
}

export const openedRows = <T extends object>(db: Db, column: keyof T, rows: T[]): T[] => rows.map((r) => opened(db, column, r))

/** Whether secrets of this database were sealed with some key already (then no new key may be made for it). */
export const hasSealedSecrets = (db: Db) => stmt(db, 'SELECT 1 FROM server_key_check WHERE id = 1').get() !== undefined

/**
 * Gives the connection its key, after checking it is the one that sealed the database's secrets, and seals whatever
 * is still plain text, all in one committed transaction before the server takes requests. The first time (no check
 * row yet) every value is plain, even one that happens to start with `v1:`; later only values without the prefix are.
 */
export function useServerKey(db: Db, box: SecretBox, keyFile: string) {
  const sealedNow = transaction(db, () => {
    const check = stmt(db, 'SELECT sealed FROM server_key_check WHERE id = 1').get() as { sealed: string } | undefined
    if (check && !opensWith(box, check.sealed)) {
      throw new CollabError('SERVER_KEY_MISMATCH',
        `${keyFile} does not hold the key this database's secrets were sealed with: restore the key file backed up with the database`)
    }
    let count = 0
    for (const [table, column, keys] of SEALED_COLUMNS) {
      const plain = check ? `AND substr(${column}, 1, ${SEALED_PREFIX.length}) <> '${SEALED_PREFIX}'` : ''
      const rows = stmt(db, `SELECT ${keys.join(', ')}, ${column} AS value FROM ${table} WHERE ${column} IS NOT NULL ${plain}`).all() as Record<string, string>[]
      const update = write(db, table, `UPDATE ${table} SET ${column} = @value WHERE ${keys.map((k) => `${k} = @${k}`).join(' AND ')}`)
      for (const row of rows) update.run({ ...row, value: box.seal(row.value) })
      count += rows.length
    }
    if (!check) write(db, 'server_key_check', 'INSERT INTO server_key_check (id, sealed) VALUES (1, ?)').run(box.seal(KEY_CHECK))
    return count
  })
  commitGroup(db)
  if (sealedNow) scrubFreedPages(db)
  boxes.set(db, box)
}

/**
 * An UPDATE leaves the old bytes of a row in the page's free space, and rows deleted long ago stay in free pages: the
 * plain text would still be in the file. VACUUM rewrites the file from live rows only, and the checkpoint empties the
 * WAL. It runs once, when plain text was found (the first boot after an upgrade), so its cost is paid once.
 */
function scrubFreedPages(db: Db) {
  db.exec('VACUUM')
  db.pragma('wal_checkpoint(TRUNCATE)')
}

function opensWith(box: SecretBox, sealed: string) {
  try {
    return box.open(sealed) === KEY_CHECK
  } catch {
    return false
  }
}
