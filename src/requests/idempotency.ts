// Idempotency-Key rules of the contract: keys are scoped to the token or grant and the
// operation, kept 24 hours; a replay returns the original status and the current view.
import { and, eq, gt } from 'drizzle-orm'
import { idempotencyKeys } from '../db/schema'
import { AppError } from '../errors'
import { sha256Hex } from '../lib/random'
import type { Deps } from './deps'
import { canonicalJson } from './state'

export function requireKey(key: string | undefined): string {
  if (!key) {
    throw new AppError(
      'idempotency_key_required',
      'Send an Idempotency-Key header (8 to 128 letters, digits, ".", ":", "_" or "-") and reuse it when retrying.',
    )
  }
  return key
}

export const conflictingKey = () =>
  new AppError(
    'idempotency_conflict',
    'This Idempotency-Key was already used with a different request body. Use a new key for a different request.',
  )

export function bodyHash(body: unknown): Promise<string> {
  return sha256Hex(canonicalJson(body))
}

export function createScopeKey(principalId: string, key: string): string {
  return `${principalId}:create:${key}`
}

export interface StoredKey {
  bodyHash: string
  requestId: string
  statusCode: number | null
}

/** The live (unexpired) record of a key, if any. */
export async function findKey(deps: Deps, scopeKey: string): Promise<StoredKey | undefined> {
  const [row] = await deps.db
    .select({ bodyHash: idempotencyKeys.bodyHash, requestId: idempotencyKeys.requestId, statusCode: idempotencyKeys.statusCode })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scopeKey, scopeKey), gt(idempotencyKeys.expiresAt, deps.now)))
  return row
}
