// A 64 KB cap on the body of every route: /api/v1 mounts capBody itself (in the contract's
// format, after its CORS answer); limitBodies covers the rest: forms, the consent page, the
// platform JSON endpoints, OAuth and MCP.
// It runs before anything reads the body, so an oversized one costs no parsing.
import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { REGISTER_PATH, TOKEN_PATH } from '../auth/oauth'
import { AppError } from '../errors'

const MAX_BODY_BYTES = 64 * 1024
const MESSAGE = 'The request body is too large.'
const PAGE_MESSAGE = 'Tablewatch accepts forms up to 64 KB. Go back and shorten what you entered.'
const JSON_PATHS = /^\/(mcp|account\/platform|\.well-known)(\/|$)/

/**
 * The one 64 KB cap, answered in the caller's format: `tooLarge` renders the refusal. /api/v1
 * mounts it itself (src/api/app.ts), after its CORS answer, so a browser page still reads the 413.
 */
export function capBody(tooLarge: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  return bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge })
}

/** The REST skin's refusal of an oversized body, in the contract's JSON (thrown to its error renderer). */
export const payloadTooLarge = () => new AppError('payload_too_large', MESSAGE)

export function limitBodies(options: { page: (c: Context, err: AppError) => Response | Promise<Response> }): MiddlewareHandler {
  const limit = capBody((c) => {
    const path = c.req.path
    if (path === TOKEN_PATH || path === REGISTER_PATH) return c.json({ error: 'invalid_request', error_description: MESSAGE }, 413)
    if (JSON_PATHS.test(path)) return c.json(payloadTooLarge().toJSON(), 413)
    return options.page(c, new AppError('payload_too_large', PAGE_MESSAGE))
  })
  return async function limitBodiesMiddleware(c, next) {
    if (c.req.path === '/api/v1' || c.req.path.startsWith('/api/v1/')) return next()
    return limit(c, next)
  }
}
