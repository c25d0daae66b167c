// The REST skin: /api/v1 with bearer auth, scope checks per route, one error renderer (wired
// once for the JSON mount in src/index.ts), and the OpenAPI 3.1 document from the same schemas.
import { OpenAPIHono } from '@hono/zod-openapi'
import { browserCors } from '../auth/browser-origins'
import { publicBaseUrl } from '../core/deployment'
import { AppError } from '../errors'
import { capBody, payloadTooLarge } from '../http/body-limit'
import { depsOf } from '../runtime/deps'
import type { ApiEnv } from './context'
import { renderError, schemaHook } from './errors'
import { bearerAuth, type TokenResolver } from './middleware'
import { ROUTES } from './routes'

export const API_BASE = '/api/v1'
const noSuchRoute = () => new AppError('not_found', 'There is no such API route.')
const methodNotAllowed = (allow: string) => new AppError('method_not_allowed', `This API route answers ${allow} only.`, { Allow: allow })

/** The Allow header of a path: its methods, HEAD with GET, and OPTIONS (CORS preflights). */
function allowedMethods(methods: string[]): string {
  const upper = methods.map((method) => method.toUpperCase())
  return [...upper, ...(upper.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ')
}

export function createApiApp(resolveToken: TokenResolver) {
  const app = new OpenAPIHono<ApiEnv>({ defaultHook: schemaHook }).basePath(API_BASE)
  app.notFound(() => renderError(noSuchRoute()))

  // Before everything else: a browser page of an allowed origin gets its preflight answered.
  app.use('*', browserCors(['GET', 'POST', 'PUT']))
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'A personal access token (spt_…) or an OAuth 2.1 access token.',
  })
  // Registered before the auth middleware: the contract document is public. Its server is the
  // configured base URL, never the request's Host.
  app.get('/openapi.json', (c) => c.json(openApiDocument(app, publicBaseUrl(c.env))))

  app.use(
    '*',
    capBody(() => {
      throw payloadTooLarge()
    }),
  )
  app.use('*', async (c, next) => {
    c.set('deps', depsOf(c.env))
    await next()
  })
  app.use('*', bearerAuth(resolveToken))

  const routes = ROUTES
  for (const route of routes) route.register(app)
  // A known path called with another method: 405 with the methods it has.
  for (const path of new Set(routes.map((route) => route.path))) {
    const allow = allowedMethods(routes.filter((route) => route.path === path).map((route) => route.method))
    app.all(path.replace(/\{(\w+)\}/g, ':$1'), () => renderError(methodNotAllowed(allow)))
  }
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
