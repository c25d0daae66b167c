// A 64 KB cap on the body of every route but /api/v1 (which caps its own bodies in the
// contract's format): forms, the consent page, the platform JSON endpoints, OAuth and MCP.
// It runs before anything reads the body, so an oversized one costs no parsing.
import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { REGISTER_PATH, TOKEN_PATH } from '../auth/oauth'
import { AppError } from '../errors'

export const MAX_BODY_BYTES = 64 * 1024
const MESSAGE = 'The request body is too large.'
const PAGE_MESSAGE = 'Tablewatch accepts forms up to 64 KB. Go back and shorten what you entered.'
const JSON_PATHS = /^\/(mcp|account\/platform|\.well-known)(\/|$)/

export function limitBodies(options: { page: (c: Context, err: AppError) => Response | Promise<Response> }): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => {
      const path = c.req.path
      if (path === TOKEN_PATH || path === REGISTER_PATH) return c.json({ error: 'invalid_request', error_description: MESSAGE }, 413)
      if (JSON_PATHS.test(path)) return c.json(new AppError('payload_too_large', MESSAGE).toJSON(), 413)
      return options.page(c, new AppError('payload_too_large', PAGE_MESSAGE))
    },
  })
  return async function limitBodiesMiddleware(c, next) {
    if (c.req.path === '/api/v1' || c.req.path.startsWith('/api/v1/')) return next()
    return limit(c, next)
  }
}
