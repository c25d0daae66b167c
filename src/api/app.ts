// The REST skin: /api/v1 with bearer auth, scope checks per route, one error renderer,
// and the OpenAPI 3.1 document generated from the same schemas.
import { OpenAPIHono } from '@hono/zod-openapi'
import { bodyLimit } from 'hono/body-limit'
import { AppError } from '../errors'
import { depsOf } from '../requests/deps'
import type { ApiEnv } from './context'
import { renderError, schemaHook } from './errors'
import { bearerAuth, type TokenResolver } from './middleware'
import { ROUTES } from './routes'

export const API_BASE = '/api/v1'
const MAX_BODY_BYTES = 64 * 1024
const noSuchRoute = () => new AppError('not_found', 'There is no such API route.')

export function createApiApp(resolveToken: TokenResolver) {
  const app = new OpenAPIHono<ApiEnv>({ defaultHook: schemaHook }).basePath(API_BASE)
  app.onError((err) => renderError(err))
  app.notFound(() => renderError(noSuchRoute()))

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'A personal access token (spt_…) or an OAuth 2.1 access token.',
  })
  // Registered before the auth middleware: the contract document is public.
  app.get('/openapi.json', (c) => c.json(openApiDocument(app, new URL(c.req.url).origin)))

  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AppError('payload_too_large', 'The request body is too large.')
      },
    }),
  )
  app.use('*', async (c, next) => {
    c.set('deps', depsOf(c.env, c.req.url))
    await next()
  })
  app.use('*', bearerAuth(resolveToken))

  for (const register of Object.values(ROUTES)) register(app)
  // A catch-all, not only notFound: when this app is mounted, the mounting app's notFound wins.
  app.all('*', () => renderError(noSuchRoute()))
  return app
}

function openApiDocument(app: OpenAPIHono<ApiEnv>, origin: string) {
  return app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Tablewatch API',
      version: '1.0.0',
      description: 'Watch the reservation platform for a table and alert the user or, after their approval, book it.',
    },
    servers: [{ url: origin }],
    security: [{ bearerAuth: [] }],
  })
}
