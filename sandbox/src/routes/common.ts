// What every platform route of the sandbox shares: the world of the call, the platform's error
// bodies, the user token, and the counted, faultable endpoint.
import type { Context } from 'hono'
import { z } from 'zod'
import type { SandboxEnv } from '../env'
import type { SandboxPlatform } from '../object'
import type { Endpoint, Fault } from '../schemas'
import { failBefore, loseAnswer } from './faults'

export type Ctx = Context<{ Bindings: SandboxEnv }>
export type World = DurableObjectStub<SandboxPlatform>

/** Each API host name is its own world, so tests can use a fresh one per test. */
export const worldOf = (c: Ctx): World => c.env.WORLDS.getByName(new URL(c.req.url).hostname)

/** A JSON answer at any status (built by hand: 419 is not in Hono's list of status codes). */
export const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

export const message = (_c: Ctx, status: number, text: string) => answer(status, { status, message: text })

export const unauthorized = (c: Ctx) => message(c, 419, 'Unauthorized')

/** The user token must come in both headers, identical, as the web app sends it. */
export function userToken(c: Ctx): string | null {
  const auth = c.req.header('X-Resy-Auth-Token')
  const universal = c.req.header('X-Resy-Universal-Auth')
  return auth && auth === universal ? auth : null
}

/** A platform call: counted, then answered, or faulted as queued (see FaultInput). */
export function endpoint(name: Endpoint, handler: (c: Ctx, world: World, fault: Fault | null) => Promise<Response>) {
  return async (c: Ctx) => {
    const world = worldOf(c)
    // Counted by the instant it reached the platform's edge (this Worker), not when the world's one
    // object got to it: under load that object's queue would bunch calls that came apart.
    const fault = await world.enter(name, Date.now(), c.req.header('User-Agent') ?? '')
    if (!fault) return handler(c, world, null)
    switch (fault.kind) {
      case 'pass':
        return handler(c, world, null)
      case 'slow':
        await scheduler.wait(fault.hangMs)
        return handler(c, world, null)
      case 'stale':
      case 'odd_entry':
        return handler(c, world, fault)
      case 'book_lost':
        await handler(c, world, null)
        return loseAnswer(fault)
      case 'book_held':
        // Committed; the caller gets what a retry of the same call gets (Hono keeps the body).
        await handler(c, world, null)
        return handler(c, world, null)
      default:
        return failBefore(fault)
    }
  }
}

export const digits = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)])

export async function jsonBody(c: Ctx): Promise<unknown> {
  return jsonOf(await c.req.text())
}

export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** The form fields of a form-encoded body (the sign-in and book calls), text values only. */
export async function formOf(c: Ctx): Promise<Record<string, string>> {
  const form = await c.req.parseBody()
  return Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === 'string'))
}
