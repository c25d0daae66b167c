// The scopes a token or OAuth grant can carry: the one list the OAuth server advertises, the
// token forms offer and every route or tool checks against.
import { z } from 'zod'

export const SCOPES = ['restaurants:read', 'requests:read', 'requests:write', 'reservations:read'] as const
export const Scope = z.enum(SCOPES)
export type Scope = z.infer<typeof Scope>

/** Narrows a stored or submitted string; unknown scopes are dropped, never trusted. */
export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value)
}
