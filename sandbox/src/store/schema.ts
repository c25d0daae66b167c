// The sandbox world's SQLite tables. Inventory itself is generated (inventory.ts); only changes
// to it are stored: removed_slots hides generated slots, added_slots adds or overrides them.
const TABLES = [
  // password_hash null with has_password 1: any password signs in (an account made by signing in);
  // has_password 0: the account signs in only by a texted code.
  `CREATE TABLE IF NOT EXISTS accounts (email TEXT PRIMARY KEY, user_id INTEGER NOT NULL,
     first_name TEXT NOT NULL, last_name TEXT NOT NULL, payment_method_id INTEGER, mobile_number TEXT,
     has_password INTEGER NOT NULL DEFAULT 1, password_hash TEXT, challenge INTEGER NOT NULL DEFAULT 1)`,
  `CREATE TABLE IF NOT EXISTS user_tokens (token TEXT PRIMARY KEY, email TEXT NOT NULL, kind TEXT NOT NULL,
     expires_at INTEGER NOT NULL, via TEXT NOT NULL DEFAULT '')`,
  // The code sign-in (store/codes.ts): the live code per number, the challenges, the codes texted.
  `CREATE TABLE IF NOT EXISTS codes (mobile_number TEXT PRIMARY KEY, code TEXT NOT NULL, device_token TEXT NOT NULL,
     expires_at INTEGER NOT NULL, tries_left INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS challenges (challenge_id TEXT PRIMARY KEY, mobile_number TEXT NOT NULL,
     device_token TEXT NOT NULL, claim_token TEXT NOT NULL, expires_at INTEGER NOT NULL, tries_left INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS texts (id INTEGER PRIMARY KEY AUTOINCREMENT, mobile_number TEXT NOT NULL,
     body TEXT NOT NULL, sent_at INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  // taken_at / opened_at: when a table went off or on sale, for the lagging calendar (calendar.ts).
  `CREATE TABLE IF NOT EXISTS removed_slots (venue_id INTEGER NOT NULL, day TEXT NOT NULL, time TEXT NOT NULL,
     seating TEXT NOT NULL, taken_at INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (venue_id, day, time, seating))`,
  `CREATE TABLE IF NOT EXISTS added_slots (venue_id INTEGER NOT NULL, day TEXT NOT NULL, time TEXT NOT NULL,
     seating TEXT NOT NULL, party_min INTEGER NOT NULL, party_max INTEGER NOT NULL, policy TEXT NOT NULL,
     opened_at INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (venue_id, day, time, seating))`,
  `CREATE TABLE IF NOT EXISTS book_tokens (token TEXT PRIMARY KEY, email TEXT NOT NULL, venue_id INTEGER NOT NULL,
     day TEXT NOT NULL, time TEXT NOT NULL, seating TEXT NOT NULL, party_size INTEGER NOT NULL, expires_at INTEGER NOT NULL,
     template INTEGER NOT NULL DEFAULT 0)`,
  `CREATE TABLE IF NOT EXISTS reservations (reservation_id INTEGER PRIMARY KEY, resy_token TEXT NOT NULL,
     email TEXT NOT NULL, venue_id INTEGER NOT NULL, day TEXT NOT NULL, time TEXT NOT NULL, seating TEXT NOT NULL,
     party_size INTEGER NOT NULL, policy TEXT NOT NULL, payment_method_id INTEGER, booked_at INTEGER NOT NULL,
     client TEXT NOT NULL DEFAULT '')`,
  `CREATE TABLE IF NOT EXISTS faults (seq INTEGER PRIMARY KEY AUTOINCREMENT, endpoint TEXT NOT NULL,
     kind TEXT NOT NULL, remaining INTEGER NOT NULL, hang_ms INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS calls (endpoint TEXT PRIMARY KEY, count INTEGER NOT NULL)`,
  // Every call by the second it arrived (epoch s, the sandbox's clock): the platform's own view of
  // how calls bunch, which the benchmark compares with the budget's grants, kept for CALL_SECONDS_KEPT.
  `CREATE TABLE IF NOT EXISTS call_seconds (second INTEGER PRIMARY KEY, count INTEGER NOT NULL)`,
  // The same by client (User-Agent): the service's own calls apart from its users' paired devices'.
  `CREATE TABLE IF NOT EXISTS client_call_seconds (second INTEGER NOT NULL, client TEXT NOT NULL, count INTEGER NOT NULL,
     PRIMARY KEY (second, client))`,
  `CREATE TABLE IF NOT EXISTS blocks (client TEXT PRIMARY KEY, until INTEGER NOT NULL, style TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS history (id INTEGER PRIMARY KEY AUTOINCREMENT, email TEXT NOT NULL, venue_id INTEGER NOT NULL,
     day TEXT NOT NULL, time TEXT NOT NULL, seating TEXT NOT NULL, party_size INTEGER NOT NULL, state TEXT NOT NULL,
     legacy INTEGER NOT NULL)`,
]

const NAMES = [
  'accounts',
  'user_tokens',
  'codes',
  'challenges',
  'texts',
  'settings',
  'removed_slots',
  'added_slots',
  'book_tokens',
  'reservations',
  'faults',
  'calls',
  'call_seconds',
  'client_call_seconds',
  'blocks',
  'history',
]

export function migrate(sql: SqlStorage): void {
  for (const statement of TABLES) sql.exec(statement)
  // A world stored before bookings recorded which client booked (the service or a paired device) gets the column.
  const columns = sql.exec<{ name: string }>("SELECT name FROM pragma_table_info('reservations')").toArray()
  if (!columns.some((c) => c.name === 'client')) sql.exec("ALTER TABLE reservations ADD COLUMN client TEXT NOT NULL DEFAULT ''")
  // A world stored before the calendar could lag behind the tables: its changes count as made long ago.
  addColumn(sql, 'removed_slots', 'taken_at')
  addColumn(sql, 'added_slots', 'opened_at')
  // A world stored before book tokens named the terms they were minted for.
  addColumn(sql, 'book_tokens', 'template')
  // A world stored before code sign-in: its accounts have passwords.
  addColumn(sql, 'accounts', 'mobile_number', 'TEXT')
  addColumn(sql, 'accounts', 'has_password', 'INTEGER NOT NULL DEFAULT 1')
  addColumn(sql, 'accounts', 'password_hash', 'TEXT')
  addColumn(sql, 'accounts', 'challenge', 'INTEGER NOT NULL DEFAULT 1')
  addColumn(sql, 'user_tokens', 'via', "TEXT NOT NULL DEFAULT ''")
  sql.exec('DROP TABLE IF EXISTS tokens') // never-expiring tokens of earlier sandboxes
}

function addColumn(sql: SqlStorage, table: string, column: string, type = 'INTEGER NOT NULL DEFAULT 0'): void {
  const columns = sql.exec<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`).toArray()
  if (!columns.some((c) => c.name === column)) sql.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`)
}

/** Back to the seeded world: no accounts, bookings, changes, faults or counts. */
export function wipe(sql: SqlStorage): void {
  for (const name of NAMES) sql.exec(`DELETE FROM ${name}`)
}

/**
 * A refresh token as the platform hands them out (docs/platform.md, "Sessions and refresh"): standard base64, so it carries `+`, `/`
 * and `=` (always: the first two bytes are chosen so, the length leaves one `=`). A client that
 * decodes or re-encodes it sends a token the platform never issued.
 */
export function refreshTokenValue(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  bytes[0] = 0xfb // 111110|11 → "+" then, with the next byte's 1111…, "/"
  bytes[1] = 0xf0 | ((bytes[1] ?? 0) & 0x0f)
  return btoa(String.fromCharCode(...bytes))
}

/** 32 random bytes, base64url: tokens the sandbox hands out. */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}
