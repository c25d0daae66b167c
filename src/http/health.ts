// GET /health: a public liveness answer, `{ok: true}`, for load balancers and
// uptime checks. The operators' figures (platform blocks and refused API keys, with the last
// path) describe the service's relationship with the platform, so they are shown only with
// `Authorization: Bearer <OPERATOR_TOKEN>` (a Worker secret; unset, nobody sees them), with the
// service-wide budget's demand, budget and shortfall.
import type { Context } from 'hono'
import { equalStrings } from '../auth/bytes'
import { budgetObject } from '../budget/budget'
import { AppError, errorResponse } from '../errors'
import { platformHealth } from '../runtime/platform-health'

export async function health(c: Context<{ Bindings: Cloudflare.Env }>): Promise<Response> {
  const header = c.req.header('Authorization')
  if (header === undefined) return c.json({ ok: true })
  const presented = /^Bearer +(\S+) *$/i.exec(header)?.[1] ?? ''
  const expected = c.env.OPERATOR_TOKEN ?? ''
  if (expected === '' || !equalStrings(presented, expected)) {
    return errorResponse(
      new AppError('unauthorized', 'The operator token is not valid. /health without Authorization answers whether the service is up.'),
    )
  }
  // The budget's figures: calls per second allowed, wanted per tier, granted, the
  // shortfall and how much each tier's cadence stretches, and the busiest 1 s and 10 s of the last hour.
  const [platform, budget] = await Promise.all([platformHealth(c.env), budgetObject(c.env).figures()])
  return c.json({ ok: true, platform, budget })
}
