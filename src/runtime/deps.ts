// What every use case needs, passed explicitly so tests can pin the clock.
import { isLocalDevelopment, publicBaseUrl } from '../core/deployment'
import { type Db, dbOf } from '../db/client'
import type { Platform } from '../platform/api'
import { servicePlatform } from './platform-health'

export interface Deps {
  env: Cloudflare.Env
  db: Db
  now: number
  /** Origin for links handed to users (action_url). */
  baseUrl: string
  /** The reservation platform, through the one real client. */
  platform: Platform
}

/** Links come from the configured base URL only (publicBaseUrl), never from a request's Host header. */
export function depsOf(env: Cloudflare.Env, now = Date.now()): Deps {
  // Only local development may go without PUBLIC_BASE_URL (src/core/deployment.ts).
  if (!env.PUBLIC_BASE_URL && !isLocalDevelopment(env)) throw new Error('PUBLIC_BASE_URL is not configured')
  return { env, db: dbOf(env.DB), now, baseUrl: publicBaseUrl(env), platform: servicePlatform(env) }
}

/** The user's paired-device connection: one object per user. */
export function deviceObject(env: Cloudflare.Env, userId: string) {
  return env.DEVICES.get(env.DEVICES.idFromName(userId))
}

export function requestObject(env: Cloudflare.Env, requestId: string) {
  return env.REQUESTS.get(env.REQUESTS.idFromName(requestId))
}
