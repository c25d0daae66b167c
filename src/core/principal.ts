// Who is calling the API: the user, and the token or OAuth grant they called through.
// A principal sees only the requests and reservations created through it.
import { z } from 'zod'
import { AppError } from '../errors'
import { SCOPES, type Scope } from './scopes'

export const Principal = z.object({
  kind: z.enum(['pat', 'oauth']),
  userId: z.string(),
  /** Token id (`pat_…`) or OAuth grant id (`grant_…`); requests are owned by it. */
  principalId: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  /** When the token or grant ends; a request must expire before it. */
  expiresAt: z.number(),
})
export type Principal = z.infer<typeof Principal>

export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.scopes.includes(scope)
}

export function requireScope(principal: Principal, scope: Scope): void {
  if (!hasScope(principal, scope)) {
    throw new AppError('insufficient_scope', `This token is missing the "${scope}" scope needed here.`, {
      'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
    })
  }
}
