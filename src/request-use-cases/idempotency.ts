// Idempotency-Key rules of the contract: keys are scoped to the token or grant and the
// operation, kept 24 hours; a replay returns the original status and the current view.
import { and, eq, gt } from 'drizzle-orm'
import { idempotencyKeys } from '../db/schema'
import { AppError } from '../errors'
import { sha256Hex } from '../lib/random'
import { canonicalJson } from '../request-aggregate/state'
import type { Deps } from '../runtime/deps'

/**
 * The key, or the contract's `idempotency_key_required`. Each skin says where the key goes
 * (`ask`: "Send an Idempotency-Key header" on REST, "Send the idempotency_key argument" on MCP).
 */
export function requireKey(key: string | undefined, ask: string): string {
  if (!key) {
    throw new AppError(
      'idempotency_key_required',
      `${ask} (8 to 128 letters, digits, ".", ":", "_" or "-") and reuse it when retrying the same call.`,
    )
  }
  return key
}

/** Worded for both skins: the key is a header on REST and an argument on MCP. */
const KEY_CONFLICT_MESSAGE = 'This idempotency key was already used with a different request. Use a new key for a different spec.'

export const conflictingKey = () => new AppError('idempotency_conflict', KEY_CONFLICT_MESSAGE)

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
