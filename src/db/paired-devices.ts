// Paired devices and their one-time pairing codes. Credentials and codes are stored
// only as SHA-256 hashes.
import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm'
import type { Db } from './client'
import { devicePairings, devices, users } from './schema'

export type DeviceRow = typeof devices.$inferSelect
type Execution = (typeof users.$inferSelect)['execution']

/** last_seen_at is written at most this often, so a chatty device is not a write per message. */
const LAST_SEEN_GRANULARITY_MS = 60_000

export async function insertPairing(db: Db, row: typeof devicePairings.$inferInsert): Promise<void> {
  await db.insert(devicePairings).values(row)
}

/** Uses the code once: returns its user when it is unused and unexpired, null otherwise (also on a second use). */
export async function consumePairing(db: Db, codeHash: string, now: number): Promise<string | null> {
  const [row] = await db
    .update(devicePairings)
    .set({ usedAt: now })
    .where(and(eq(devicePairings.codeHash, codeHash), isNull(devicePairings.usedAt), gt(devicePairings.expiresAt, now)))
    .returning({ userId: devicePairings.userId })
  return row?.userId ?? null
}

export async function insertDevice(db: Db, row: DeviceRow): Promise<void> {
  await db.insert(devices).values(row)
}

export async function findDeviceByCredentialHash(db: Db, credentialHash: string): Promise<DeviceRow | undefined> {
  return db.select().from(devices).where(eq(devices.credentialHash, credentialHash)).get()
}

export async function listDevices(db: Db, userId: string): Promise<DeviceRow[]> {
  return db.select().from(devices).where(eq(devices.userId, userId)).orderBy(desc(devices.createdAt))
}

export async function hasActiveDevice(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.userId, userId), isNull(devices.revokedAt)))
    .get()
  return row !== undefined
}

/** Marks the device revoked; false when it is not this user's or already revoked. */
export async function markDeviceRevoked(db: Db, userId: string, deviceId: string, now: number): Promise<boolean> {
  const gone = await db
    .update(devices)
    .set({ revokedAt: now })
    .where(and(eq(devices.id, deviceId), eq(devices.userId, userId), isNull(devices.revokedAt)))
    .returning({ id: devices.id })
  return gone.length > 0
}

export async function touchDevice(db: Db, deviceId: string, now: number): Promise<void> {
  await db
    .update(devices)
    .set({ lastSeenAt: now })
    .where(and(eq(devices.id, deviceId), or(isNull(devices.lastSeenAt), lt(devices.lastSeenAt, now - LAST_SEEN_GRANULARITY_MS))))
}

export interface ExecutionSetting {
  execution: Execution
  cloudFallback: boolean
}

/** The user's choice and whether they ever paired a device (revoked ones too), in one query. */
export async function executionFactsOf(db: Db, userId: string): Promise<ExecutionSetting & { everPaired: boolean }> {
  const everPaired = sql<number>`exists (select 1 from devices where devices.user_id = ${userId})`
  const row = await db
    .select({ execution: users.execution, cloudFallback: users.cloudFallback, everPaired })
    .from(users)
    .where(eq(users.id, userId))
    .get()
  return row ? { ...row, everPaired: Boolean(row.everPaired) } : { execution: 'cloud', cloudFallback: false, everPaired: false }
}

export async function executionSettingOf(db: Db, userId: string): Promise<ExecutionSetting> {
  const row = await db
    .select({ execution: users.execution, cloudFallback: users.cloudFallback })
    .from(users)
    .where(eq(users.id, userId))
    .get()
  return row ?? { execution: 'cloud', cloudFallback: false }
}

export async function saveExecutionSetting(db: Db, userId: string, setting: ExecutionSetting): Promise<void> {
  await db.update(users).set(setting).where(eq(users.id, userId))
}
