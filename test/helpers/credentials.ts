// A user-token call's credentials for a bare token: an empty cookie jar, as a new browser has.
import type { UserCredentials } from '../../src/platform/api'

export const asUser = (authToken: string): UserCredentials => ({ authToken, cdnCookies: {} })
