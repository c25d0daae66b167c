// Queries on users: sign-up, sign-in lookups and notification settings.
import { and, eq } from 'drizzle-orm'
import { newId } from '../lib/random'
import type { Db } from './client'
import { users } from './schema'

/**
 * A PBKDF2 hash as the users table keeps it (base64 hash and salt, the iteration count, and the
 * version of the pepper it is HMAC'd with: null for a hash from before peppering).
 */
export interface StoredPassword {
  hash: string
  salt: string
  iterations: number
  pepperVersion: number | null
}

export type UserRow = typeof users.$inferSelect

/** Emails are compared case-insensitively: stored trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

function newUserId(): string {
  return newId('usr')
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .get()
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.select().from(users).where(eq(users.id, id)).get()
}

/** Creates the user, or returns null when the email is already taken (even by a concurrent sign-up). */
export async function insertUser(db: Db, input: { email: string; password: StoredPassword; now: number }): Promise<UserRow | null> {
  const rows = await db
    .insert(users)
    .values({
      id: newUserId(),
      email: normalizeEmail(input.email),
      passwordHash: input.password.hash,
      passwordSalt: input.password.salt,
      passwordIterations: input.password.iterations,
      passwordPepperVersion: input.password.pepperVersion,
      createdAt: input.now,
    })
    .onConflictDoNothing({ target: users.email })
    .returning()
  return rows[0] ?? null
}

/** The stored password hash of a user, or null for an account without a password. */
export function storedPassword(user: UserRow): StoredPassword | null {
  if (!user.passwordHash || !user.passwordSalt || !user.passwordIterations) return null
  return {
    hash: user.passwordHash,
    salt: user.passwordSalt,
    iterations: user.passwordIterations,
    pepperVersion: user.passwordPepperVersion,
  }
}

/**
 * Replaces the stored hash, only while it is still `previous` (a concurrent change wins once).
 * Returns whether it was replaced.
 */
export async function replacePassword(db: Db, userId: string, previous: StoredPassword, next: StoredPassword): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({
      passwordHash: next.hash,
      passwordSalt: next.salt,
      passwordIterations: next.iterations,
      passwordPepperVersion: next.pepperVersion,
    })
    .where(and(eq(users.id, userId), eq(users.passwordHash, previous.hash)))
    .returning({ id: users.id })
  return rows.length > 0
}

export interface NotificationSettings {
  emailAlerts: boolean
  /** As stored: sealed with its signing secret (src/notifications/webhook-config.ts). */
  webhookUrl: string | null
}

export async function updateNotificationSettings(db: Db, userId: string, settings: NotificationSettings): Promise<void> {
  await db.update(users).set({ emailAlerts: settings.emailAlerts, webhookUrl: settings.webhookUrl }).where(eq(users.id, userId))
}

/** The unsubscribe link's one change: email alerts off (webhook and inbox stay as they are). */
export async function turnOffEmailAlerts(db: Db, userId: string): Promise<boolean> {
  const rows = await db.update(users).set({ emailAlerts: false }).where(eq(users.id, userId)).returning({ id: users.id })
  return rows.length > 0
}

/** The caps on table alerts, the notice kinds switched off, and the webhook's body format. */
export interface AlertPreferences {
  alertGapMinutes: number
  dailyAlertCap: number
  noticesOff: string[]
  webhookFormat: 'json' | 'ntfy' | 'slack'
}

export async function findAlertPreferences(db: Db, userId: string): Promise<AlertPreferences | undefined> {
  return db
    .select({
      alertGapMinutes: users.alertGapMinutes,
      dailyAlertCap: users.dailyAlertCap,
      noticesOff: users.noticesOff,
      webhookFormat: users.webhookFormat,
    })
    .from(users)
    .where(eq(users.id, userId))
    .get()
}

export async function updateAlertPreferences(db: Db, userId: string, prefs: AlertPreferences): Promise<void> {
  await db.update(users).set(prefs).where(eq(users.id, userId))
}
