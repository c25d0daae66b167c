// The world's sign-in settings (schemas.ts signInSettingsSchema), kept as one JSON row: every
// platform call reads them (the firewall's datacenter rule, the sign-in routes).
import { type SignInSettings, type SignInSettingsInput, signInSettingsInput, signInSettingsSchema } from '../schemas'

const KEY = 'sign_in'

export function signInSettingsOf(sql: SqlStorage): SignInSettings {
  const row = sql.exec<{ value: string }>('SELECT value FROM settings WHERE key = ?', KEY).toArray()[0]
  return signInSettingsSchema.parse(row ? JSON.parse(row.value) : {})
}

/** Changes the settings named in `input` (validated); the others stay. Returns the new settings. */
export function setSignInSettings(sql: SqlStorage, input: SignInSettingsInput): SignInSettings {
  const given = signInSettingsInput.parse(input)
  const named = Object.fromEntries(Object.keys(input).map((k) => [k, given[k as keyof typeof given]]))
  const next = signInSettingsSchema.parse({ ...signInSettingsOf(sql), ...named })
  sql.exec('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)', KEY, JSON.stringify(next))
  return next
}
