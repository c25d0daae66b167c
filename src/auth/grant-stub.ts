// The Durable Object of an OAuth grant (src/auth/grant-object.ts), by the user and grant a token
// names (`<user id>:<grant id>:<secret>`). Only a name: the object decides what the token is worth.
export function grantObject(env: Cloudflare.Env, grant: { userId: string; grantId: string }) {
  return env.GRANTS.get(env.GRANTS.idFromName(`${grant.userId}:${grant.grantId}`))
}
