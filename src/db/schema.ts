// Tables only. Queries live in the small modules beside this file.
// Times are integer milliseconds since the epoch unless a column says otherwise.
import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { AlertGroup } from './alert-groups'

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  // PBKDF2-SHA256: base64 hash and salt, and the iteration count used.
  passwordHash: text('password_hash'),
  passwordSalt: text('password_salt'),
  passwordIterations: integer('password_iterations'),
  // Which Worker-secret pepper the stored hash is HMAC'd with; null for a hash from before peppering.
  passwordPepperVersion: integer('password_pepper_version'),
  emailAlerts: integer('email_alerts', { mode: 'boolean' }).notNull().default(true),
  webhookUrl: text('webhook_url'),
  // Where the platform work of this user's requests runs: the service ('cloud') or a paired
  // device ('user_device'). cloud_fallback: with user_device, an offline device hands
  // the work to the cloud connection instead of pausing (off unless the user turns it on).
  execution: text('execution', { enum: ['cloud', 'user_device'] })
    .notNull()
    .default('cloud'),
  cloudFallback: integer('cloud_fallback', { mode: 'boolean' }).notNull().default(false),
  createdAt: integer('created_at').notNull(),
  // Alert caps: at most one table alert per request every N minutes unless a new
  // restaurant-date appears, and at most this many table alerts by email and webhook a day.
  alertGapMinutes: integer('alert_gap_minutes').notNull().default(10),
  dailyAlertCap: integer('daily_alert_cap').notNull().default(20),
  // Notice kinds the user switched off for email and webhook (a JSON array; the inbox keeps all).
  noticesOff: text('notices_off', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
  // How the webhook body is shaped: Tablewatch's versioned JSON, or the ntfy or Slack preset.
  webhookFormat: text('webhook_format', { enum: ['json', 'ntfy', 'slack'] })
    .notNull()
    .default('json'),
})

export const sessions = sqliteTable(
  'sessions',
  {
    // SHA-256 of the cookie value; the cookie itself is never stored.
    idHash: text('id_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    csrfSecret: text('csrf_secret').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    // Last request seen (written at most once a minute); a session idle too long ends.
    lastSeenAt: integer('last_seen_at').notNull().default(0),
  },
  (t) => [index('sessions_user').on(t.userId)],
)

/**
 * Fixed-window counters for throttles (sign-in attempts, sign-ups, sign-up notices, webhook
 * tests), keyed by what they count, e.g. `signin:pair:<email>:<address>`. An attempt is
 * reserved with one conditional upsert, so parallel attempts can never exceed the limit.
 */
export const rateLimits = sqliteTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    windowStart: integer('window_start').notNull(),
  },
  (t) => [index('rate_limits_window').on(t.windowStart)],
)

/**
 * Every refresh token the OAuth token endpoint issued (its SHA-256 only), by grant and
 * rotation generation, for refresh-token reuse detection (RFC 9700, section 4.14.2).
 */
export const oauthRefreshTokens = sqliteTable(
  'oauth_refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    grantId: text('grant_id').notNull(),
    userId: text('user_id').notNull(),
    // 0 at the code exchange, one more at each rotation.
    generation: integer('generation').notNull(),
    issuedAt: integer('issued_at').notNull(),
    // Unused since a rotated-out token's duplicates get the rotation's answer (src/auth/refresh-reuse.ts); kept to avoid a migration.
    graceUsedAt: integer('grace_used_at'),
  },
  (t) => [index('oauth_refresh_tokens_grant').on(t.grantId, t.generation), index('oauth_refresh_tokens_issued').on(t.issuedAt)],
)

export const accessTokens = sqliteTable(
  'access_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    // SHA-256 (hex) of the whole token; the token itself is shown once and never stored.
    tokenHash: text('token_hash').notNull().unique(),
    // First and last characters, so the user can tell tokens apart.
    hint: text('hint').notNull(),
    scopes: text('scopes', { mode: 'json' }).$type<string[]>().notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    lastUsedAt: integer('last_used_at'),
    revokedAt: integer('revoked_at'),
  },
  (t) => [index('access_tokens_user').on(t.userId)],
)

/** One reservation-platform account per user. The platform token is AES-GCM encrypted. */
export const platformConnections = sqliteTable('platform_connections', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenCiphertext: text('token_ciphertext').notNull(),
  tokenIv: text('token_iv').notNull(),
  // The platform's refresh token (the production_refresh_token cookie), sealed like the auth
  // token; null when the platform gave none (then a rejected token means reconnecting).
  refreshCiphertext: text('refresh_ciphertext'),
  refreshIv: text('refresh_iv'),
  // How the refresh token came ('cookie' or 'body', docs/platform.md "Sessions and refresh") and
  // when it stops working; null when there is none or nothing says.
  refreshVia: text('refresh_via', { enum: ['cookie', 'body'] }),
  refreshExpiresAt: integer('refresh_expires_at'),
  // The auth token's JWT `exp`, and when this token was obtained: it is renewed ahead of expiry.
  tokenExpiresAt: integer('token_expires_at'),
  tokenObtainedAt: integer('token_obtained_at'),
  // The CDN's cookies of the session (visid_incap_* …, JSON), sealed like the tokens: sent back on
  // the session's calls as a browser does (docs/platform.md "The CDN"); null for none.
  cdnCookiesCiphertext: text('cdn_cookies_ciphertext'),
  cdnCookiesIv: text('cdn_cookies_iv'),
  // One renewal per user at a time (a refresh token works once): who holds the lease and until
  // when (epoch ms). Null when nobody renews; an expired lease is a renewer that died.
  renewalHolder: text('renewal_holder'),
  renewalLeaseUntil: integer('renewal_lease_until'),
  displayName: text('display_name').notNull(),
  paymentMethodId: integer('payment_method_id'),
  // 'ok' while the platform accepts the token; 'reauth_required' once it rejected it.
  state: text('state', { enum: ['ok', 'reauth_required'] }).notNull(),
  connectedAt: integer('connected_at').notNull(),
  checkedAt: integer('checked_at').notNull(),
})

export const venues = sqliteTable(
  'venues',
  {
    venueId: integer('venue_id').primaryKey(),
    name: text('name').notNull(),
    city: text('city').notNull(),
    neighborhood: text('neighborhood').notNull().default(''),
    timeZone: text('time_zone').notNull(),
    urlSlug: text('url_slug'),
    // The city's part of the venue's web page; null for venues stored before it was kept.
    citySlug: text('city_slug'),
    // Street address as the platform's venue details state it ("123 Main St, New York, NY"); null
    // for venues stored before addresses were kept.
    address: text('address'),
    // Known release rule: tables open `releaseDaysInAdvance` days ahead at `releaseTime` (HH:MM local).
    releaseDaysInAdvance: integer('release_days_in_advance'),
    releaseTime: text('release_time'),
    // Why the service cannot book the venue, as the platform's venue data last said it:
    // 'recaptcha' (feature_recaptcha) or 'tock' (is_tock_inventory); null: bookable as far as it says.
    bookingBlocker: text('booking_blocker', { enum: ['recaptcha', 'tock'] }),
    addedAt: integer('added_at').notNull(),
  },
  (t) => [index('venues_name').on(t.name)],
)

/**
 * The index of service requests. The request's Durable Object is the source of truth for
 * status and revision; this row mirrors them for listing, the open-request limit and the
 * overlap checks, and keeps the spec so the object can be rebuilt if its creation failed.
 */
export const requests = sqliteTable(
  'requests',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // The token or OAuth grant that created it: only that principal sees it.
    principalId: text('principal_id').notNull(),
    status: text('status').notNull(),
    mode: text('mode').notNull(),
    revision: integer('revision').notNull(),
    spec: text('spec', { mode: 'json' }).notNull(),
    expiresAt: integer('expires_at').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('requests_principal_created').on(t.principalId, t.createdAt), index('requests_user_status').on(t.userId, t.status)],
)

/** One row per requested date: the window as instants, for "same dinner" overlap checks. */
export const requestWindows = sqliteTable(
  'request_windows',
  {
    requestId: text('request_id')
      .notNull()
      .references(() => requests.id, { onDelete: 'cascade' }),
    startsAt: integer('starts_at').notNull(),
    endsAt: integer('ends_at').notNull(),
  },
  (t) => [index('request_windows_request').on(t.requestId)],
)

export const idempotencyKeys = sqliteTable('idempotency_keys', {
  // principal + operation + key, so two tokens never share a key space.
  scopeKey: text('scope_key').primaryKey(),
  bodyHash: text('body_hash').notNull(),
  requestId: text('request_id').notNull(),
  // null while the first call is still running.
  statusCode: integer('status_code'),
  createdAt: integer('created_at').notNull(),
  expiresAt: integer('expires_at').notNull(),
})

export const reservations = sqliteTable(
  'reservations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    requestId: text('request_id').notNull().unique(),
    userId: text('user_id').notNull(),
    principalId: text('principal_id').notNull(),
    venueId: integer('venue_id').notNull(),
    date: text('date').notNull(),
    time: text('time').notNull(),
    partySize: integer('party_size').notNull(),
    seating: text('seating').notNull(),
    startsAt: integer('starts_at').notNull(),
    platformReservationId: text('platform_reservation_id'),
    cancellationFee: real('cancellation_fee'),
    cancellationDeadline: integer('cancellation_deadline'),
    verified: integer('verified', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
    verifiedAt: integer('verified_at'),
  },
  (t) => [
    index('reservations_user').on(t.userId),
    index('reservations_principal').on(t.principalId),
    // One platform reservation belongs to one request: the insert is the claim, so two requests
    // verifying at the same moment cannot both take it (NULLs never conflict).
    uniqueIndex('reservations_user_platform_reservation').on(t.userId, t.platformReservationId),
  ],
)

export const notifications = sqliteTable(
  'notifications',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestId: text('request_id'),
    // Deduplicates alerts across polls, retries and restarts.
    dedupeKey: text('dedupe_key').notNull(),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    // A digest's tables by restaurant and date (alert-groups.ts), for the inbox's links.
    groups: text('groups', { mode: 'json' }).$type<AlertGroup[]>(),
    createdAt: integer('created_at').notNull(),
    readAt: integer('read_at'),
  },
  (t) => [uniqueIndex('notifications_dedupe').on(t.userId, t.dedupeKey), index('notifications_user').on(t.userId, t.createdAt)],
)

/**
 * A user's calendar feed: the secret in its URL is shown once, when it is made or
 * reset; only its SHA-256 is kept, like access tokens.
 */
export const calendarFeeds = sqliteTable('calendar_feeds', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: integer('created_at').notNull(),
})

/**
 * Each revision of a request its owner saw on the approval page, with the spec as shown, so the
 * page can say what changed since. Written only by the owner's page views.
 */
export const seenRevisions = sqliteTable(
  'seen_revisions',
  {
    requestId: text('request_id')
      .notNull()
      .references(() => requests.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    spec: text('spec', { mode: 'json' }).notNull(),
    seenAt: integer('seen_at').notNull(),
    // Set when the owner approved this revision (a later update clears the request's approval).
    approvedAt: integer('approved_at'),
  },
  (t) => [primaryKey({ columns: [t.requestId, t.revision] })],
)

/** Emails the mailer sent (in local dev, the outbox page shows them). */
export const outbox = sqliteTable('outbox', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  userId: text('user_id').notNull(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: integer('created_at').notNull().default(sql`(unixepoch() * 1000)`),
})

/**
 * Platform problems operators must see: firewall/CDN blocks and the platform refusing
 * the service's API key. One row per kind, counted since the database was created.
 */
export const platformProblems = sqliteTable('platform_problems', {
  kind: text('kind', { enum: ['blocked', 'operator_fault'] }).primaryKey(),
  count: integer('count').notNull(),
  firstAt: integer('first_at').notNull(),
  lastAt: integer('last_at').notNull(),
  /** What the last one was, e.g. `/4/find cloudfront`: a path and a signal, never a secret. */
  lastDetail: text('last_detail').notNull(),
})

/** Devices the user paired. Only the SHA-256 of the device credential (`spd_…`) is stored. */
export const devices = sqliteTable(
  'devices',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    credentialHash: text('credential_hash').notNull().unique(),
    createdAt: integer('created_at').notNull(),
    lastSeenAt: integer('last_seen_at'),
    revokedAt: integer('revoked_at'),
  },
  (t) => [index('devices_user').on(t.userId)],
)

/** One-time pairing codes shown on the settings page (RFC 8628 user codes): hashed, single use, 10 minutes. */
export const devicePairings = sqliteTable(
  'device_pairings',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
  },
  (t) => [index('device_pairings_user').on(t.userId)],
)

/**
 * A browser's Web Push subscription. The endpoint and its keys are secrets (whoever
 * holds them can push to the browser): sealed at rest with PLATFORM_TOKEN_KEY, bound to the
 * user; only the endpoint's SHA-256 is in the clear, so one browser's subscription belongs to
 * one user at a time.
 */
export const pushSubscriptions = sqliteTable(
  'push_subscriptions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpointHash: text('endpoint_hash').notNull().unique(),
    sealed: text('sealed').notNull(),
    iv: text('iv').notNull(),
    /** Browser and device, as the browser's User-Agent told it when push was turned on. */
    label: text('label').notNull(),
    createdAt: integer('created_at').notNull(),
    lastSuccessAt: integer('last_success_at'),
    /** The last delivery that failed after its retries (cleared by the next success). */
    lastFailureAt: integer('last_failure_at'),
    lastFailure: text('last_failure'),
  },
  (t) => [index('push_subscriptions_user').on(t.userId)],
)

/**
 * A platform sign-in under way (a code by text message): one per user, for minutes. What it must
 * keep between the diner's steps (the phone number, the platform's device_token the code is tied
 * to, the challenge id, the key a paired device seals the session to) is one sealed JSON value,
 * bound to the user and to this sign-in's id; nothing of it ever goes into a page.
 */
export const platformSignIns = sqliteTable('platform_sign_ins', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  id: text('id').notNull(),
  /** Who calls the platform: the service ('cloud') or the user's paired device ('device'). */
  via: text('via', { enum: ['cloud', 'device'] }).notNull(),
  /** 'code_sent': the code is awaited; 'challenge': the platform asked for the account's email. */
  step: text('step', { enum: ['code_sent', 'challenge'] }).notNull(),
  sealed: text('sealed').notNull(),
  iv: text('iv').notNull(),
  /** Codes and emails tried against this sign-in (a few, then a new code is needed). */
  attempts: integer('attempts').notNull().default(0),
  /** The last four digits of the number, shown as "we sent a code to ••• 1234". */
  numberHint: text('number_hint').notNull(),
  createdAt: integer('created_at').notNull(),
  expiresAt: integer('expires_at').notNull(),
})

/**
 * The account calls the platform refused from the service's own network (a `blocked` answer on
 * that call, the CDN's refusal), per user: remembered by its answer, forgotten when the same
 * call works from the cloud again. Settings and the executor read it.
 */
export const cloudRefusals = sqliteTable(
  'cloud_refusals',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    call: text('call', { enum: ['sign_in', 'refresh', 'details', 'book', 'reservations'] }).notNull(),
    /** The kind of refusal (blocks.ts BlockSignal): never a secret. */
    signal: text('signal').notNull(),
    firstAt: integer('first_at').notNull(),
    lastAt: integer('last_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.call] })],
)
