// Every REST error goes through the contract's JSON renderer (errorResponse). Hono's own
// refusals become AppErrors first: malformed JSON is a 422 validation error, a body over the
// limit `payload_too_large`.

import type { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { AppError, errorResponse, ValidationError } from '../errors'
import { type Location, validationError } from '../request-use-cases/validation'

function fromHono(err: unknown): unknown {
  if (err instanceof HTTPException && err.status === 400 && /JSON/i.test(err.message)) {
    return new ValidationError([{ loc: ['body'], msg: 'The body is not valid JSON.', type: 'json_invalid' }])
  }
  if (err instanceof HTTPException && err.status === 413) return new AppError('payload_too_large', 'The request body is too large.')
  return err
}

/** The REST skin's onError (and its not-found answers). */
export function renderError(err: unknown): Response {
  return errorResponse(fromHono(err))
}

const LOCATIONS: Record<string, Location> = { json: 'body', query: 'query', param: 'path', header: 'header' }

/** zod-openapi's defaultHook: a failed schema becomes the contract's 422 body. */
export async function schemaHook(
  result: { target: string } & ({ success: true } | { success: false; error: z.ZodError }),
  c: Context,
): Promise<void> {
  if (result.success) return
  const where = LOCATIONS[result.target] ?? 'body'
  throw validationError(result.error.issues, where, await inputOf(c, where))
}

async function inputOf(c: Context, where: Location): Promise<unknown> {
  switch (where) {
    case 'body':
      return c.req.json().catch(() => undefined)
    case 'query':
      return c.req.query()
    case 'path':
      return c.req.param()
    case 'header':
      return c.req.header()
  }
}
