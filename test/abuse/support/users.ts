// Users and tokens for the abuse suite: the test helpers' own, with every token marked secret.
import { createTokenForUser, createUserWithToken, type TestScope, type TokenOptions } from '../../helpers/auth'
import { keepSecret } from './leaks'

export async function secretUser(options: TokenOptions = {}) {
  const made = await createUserWithToken(options)
  keepSecret(made.token)
  return made
}

export async function secretToken(userId: string, scopes?: readonly TestScope[], options: Omit<TokenOptions, 'scopes'> = {}) {
  const made = await createTokenForUser(userId, scopes, options)
  keepSecret(made.token)
  return made
}
