// What every use case needs, passed explicitly so tests can pin the clock.
import { isLocalDevelopment } from '../core/deployment'
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

export function depsOf(env: Cloudflare.Env, requestUrl?: string, now = Date.now()): Deps {
  // Only local development may go without PUBLIC_BASE_URL (src/core/deployment.ts); nowhere else does a
  // link come from the request's Host header.
  if (!env.PUBLIC_BASE_URL && !isLocalDevelopment(env)) throw new Error('PUBLIC_BASE_URL is not configured')
  const baseUrl = env.PUBLIC_BASE_URL || (requestUrl ? new URL(requestUrl).origin : 'http://localhost:8787')
  return { env, db: dbOf(env.DB), now, baseUrl: baseUrl.replace(/\/$/, ''), platform: servicePlatform(env) }
}

/** The user's paired-device connection: one object per user. */
export function deviceObject(env: Cloudflare.Env, userId: string) {
  return env.DEVICES.get(env.DEVICES.idFromName(userId))
}

export function requestObject(env: Cloudflare.Env, requestId: string) {
  return env.REQUESTS.get(env.REQUESTS.idFromName(requestId))
}
