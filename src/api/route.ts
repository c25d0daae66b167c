// One REST route from an operation of the table (src/operations): the operation's scope guards
// it, its schemas validate and document the request parts and the response, its use case
// answers, and its REST shape says where each input field travels (path, query, header, body).
import { createRoute, type OpenAPIHono, type RouteConfig, type z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { Operation, Parts, RestShape } from '../operations/operation'
import type { ApiEnv } from './context'
import { jsonBody, scope } from './middleware'
import { errorResponses, json, security } from './responses'

export interface RestRoute {
  /** The operation's name in the table. */
  name: string
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

export function restRouteOf<I extends z.ZodType, O extends z.ZodObject>(op: Operation<I, O>): RestRoute {
  const shape = op.rest
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
    name: op.name,
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
