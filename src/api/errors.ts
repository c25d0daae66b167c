// Rendering of every REST error: AppError as `{code, message}`, schema failures as the
// contract's 422 `{detail}` body, malformed JSON as a 422 too; anything else is `internal`.

import type { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { AppError, toAppError, ValidationError } from '../errors'
import { type Location, validationError } from '../requests/validation'

export function renderError(err: unknown, c: Context): Response {
  if (err instanceof ValidationError) return c.json({ detail: err.detail }, 422)
  if (err instanceof HTTPException && err.status === 400 && /JSON/i.test(err.message)) {
    return c.json({ detail: [{ loc: ['body'], msg: 'The body is not valid JSON.', type: 'json_invalid' }] }, 422)
  }
  if (err instanceof HTTPException && err.status === 413) {
    return renderError(new AppError('payload_too_large', 'The request body is too large.'), c)
  }
  const appError = toAppError(err)
  for (const [name, value] of Object.entries(appError.headers)) c.header(name, value)
  return c.json(appError.toJSON(), appError.status as ContentfulStatusCode)
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
