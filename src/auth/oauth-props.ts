// What a grant carries (encrypted by the library) and how a validated OAuth access token
// becomes the same Principal a personal access token gives.
import type { ValidatedAccessToken } from '@cloudflare/workers-oauth-provider'
import { z } from 'zod'
import type { Principal } from '../core/principal'
import { isScope } from '../core/scopes'

export const OAuthProps = z.object({
  userId: z.string().min(1),
  /** When the grant ends (ms since epoch): 30 days after consent. Requests must expire before it. */
  grantExpiresAt: z.number(),
  /** Set at the code exchange (the grant exists only then); every access token carries it. */
  grantId: z.string().min(1).optional(),
  /**
   * The connection (user, client, resource) the grant belongs to: the principal that owns the
   * requests of all its grants (src/auth/oauth-connection.ts). Absent from grants made before.
   */
  connectionId: z.string().min(1).optional(),
  /**
   * The earlier client (registered again, or one that looks like it) whose connection the user
   * chose on the consent page to continue: at the code exchange its requests move to this
   * grant's connection and its grants end (src/access/reconnect.ts).
   */
  continuesClientId: z.string().min(1).optional(),
})
export type OAuthProps = z.infer<typeof OAuthProps>

/** Requests created through a grant made before connections were shared are owned by this id. */
export function grantPrincipalId(grantId: string): string {
  return `grant_${grantId}`
}

/** Null when the token's props are not what this service stored (never trust them blindly). */
export function principalFromOAuth(token: ValidatedAccessToken<unknown>): Principal | null {
  const props = OAuthProps.safeParse(token.props)
  if (!props.success || !props.data.grantId || props.data.userId !== token.userId) return null
  return {
    kind: 'oauth',
    userId: token.userId,
    principalId: props.data.connectionId ?? grantPrincipalId(props.data.grantId),
    scopes: token.scope.filter(isScope),
    expiresAt: props.data.grantExpiresAt,
  }
}
