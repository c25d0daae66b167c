// One REST route from an operation of the table: the operation's scope guards it, its schemas
// validate and document the request parts and the response, its use case answers. A route
// adds only where each input field travels (path, query, header, body) and its HTTP shape.
import { createRoute, type OpenAPIHono, type RouteConfig, type z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { Operation } from '../request-use-cases/operations'
import type { ApiEnv } from './context'
import { jsonBody, scope } from './middleware'
import { type ErrorStatus, errorResponses, json, security } from './responses'

/**
 * The request parts, parsed with the route's own schemas. zod-openapi has already validated
 * each part against the same schema (a failure answers 422 before the handler), so these
 * parses only give the values their static types, which `c.req.valid` cannot inside a route
 * built from a table.
 */
interface Parts {
  params<S extends z.ZodType>(schema: S): z.output<S>
  query<S extends z.ZodType>(schema: S): z.output<S>
  headers<S extends z.ZodType>(schema: S): z.output<S>
  body<S extends z.ZodType>(schema: S): Promise<z.output<S>>
}

export interface RestShape<I extends z.ZodType, O extends z.ZodObject = z.ZodObject> {
  method: 'get' | 'post' | 'put'
  path: string
  /** The operation's name in the document, for generated clients (camelCase, unique). */
  operationId: string
  tags: string[]
  summary: string
  status: 200 | 201
  description: string
  errors: ErrorStatus[]
  request: { params?: z.ZodObject; query?: z.ZodObject; headers?: z.ZodObject; body?: z.ZodType }
  /** A realistic request body (src/api/examples.ts), for routes that take one. */
  bodyExample?: unknown
  /** A realistic answer of the success status. */
  example: z.output<O>
  /** The operation's input, from the parts `request` declares. */
  input(parts: Parts): z.output<I> | Promise<z.output<I>>
}

export interface RestRoute {
  method: RestShape<z.ZodType>['method']
  /** The OpenAPI path (`/requests/{request_id}`). */
  path: string
  register(app: OpenAPIHono<ApiEnv>): void
}

function partsOf(c: Context<ApiEnv>): Parts {
  return {
    params: (schema) => schema.parse(c.req.param()),
    query: (schema) => schema.parse(c.req.query()),
    headers: (schema) => schema.parse(c.req.header()),
    body: async (schema) => schema.parse(await c.req.json()),
  }
}

export function restRouteOf<I extends z.ZodType, O extends z.ZodObject>(op: Operation<I, O>, shape: RestShape<I, O>): RestRoute {
  const { params, query, headers, body } = shape.request
  // Declared as the library's wide type: the success status comes from the table, so the
  // handler answers with a plain Response (its body is the operation's output type).
  const responses: RouteConfig['responses'] = {
    [shape.status]: { description: shape.description, content: json(op.output, shape.example) },
    ...errorResponses(...shape.errors),
  }
  const route = createRoute({
    method: shape.method,
    path: shape.path,
    operationId: shape.operationId,
    tags: shape.tags,
    summary: shape.summary,
    security,
    middleware: body ? [scope(op.scope), jsonBody] : [scope(op.scope)],
    request: {
      ...(params ? { params } : {}),
      ...(query ? { query } : {}),
      ...(headers ? { headers } : {}),
      ...(body ? { body: { required: true, content: json(body, shape.bodyExample) } } : {}),
    },
    responses,
  })
  return {
    method: shape.method,
    path: shape.path,
    register(app) {
      app.openapi(route, async (c) => {
        const input = await shape.input(partsOf(c))
        const { value, replayed } = await op.run(c.get('deps'), c.get('principal'), input)
        if (replayed) c.header('Idempotent-Replayed', 'true')
        return c.json(value, shape.status)
      })
    },
  }
}
