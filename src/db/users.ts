// Queries on users: sign-up, sign-in lookups and notification settings.
import { eq } from 'drizzle-orm'
import { newId } from '../lib/random'
import type { Db } from './client'
import { users } from './schema'

/** A PBKDF2 hash as the users table keeps it (base64 hash and salt, and the iteration count). */
export interface StoredPassword {
  hash: string
  salt: string
  iterations: number
}

export type UserRow = typeof users.$inferSelect

/** Emails are compared case-insensitively: stored trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

export function newUserId(): string {
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
      createdAt: input.now,
    })
    .onConflictDoNothing({ target: users.email })
    .returning()
  return rows[0] ?? null
}

export interface NotificationSettings {
  emailAlerts: boolean
  webhookUrl: string | null
}

export async function updateNotificationSettings(db: Db, userId: string, settings: NotificationSettings): Promise<void> {
  await db.update(users).set({ emailAlerts: settings.emailAlerts, webhookUrl: settings.webhookUrl }).where(eq(users.id, userId))
}
