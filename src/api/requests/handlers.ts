// Each handler reads its validated input, calls one use case, and shapes the response.
import type { RouteHandler } from '@hono/zod-openapi'
import { createRequest } from '../../requests/create'
import { previewRequest } from '../../requests/preview'
import { getRequest, listRequests } from '../../requests/read'
import { stopRequest } from '../../requests/stop'
import { updateRequest } from '../../requests/update'
import type { ApiEnv } from '../context'
import type { createRequestRoute, getRequestRoute, listRequestsRoute, previewRoute, stopRequestRoute, updateRequestRoute } from './routes'

export const preview: RouteHandler<typeof previewRoute, ApiEnv> = async (c) =>
  c.json(await previewRequest(c.get('deps'), c.get('principal'), c.req.valid('json')), 200)

export const create: RouteHandler<typeof createRequestRoute, ApiEnv> = async (c) => {
  const result = await createRequest(c.get('deps'), c.get('principal'), {
    spec: c.req.valid('json'),
    idempotencyKey: c.req.valid('header')['idempotency-key'],
  })
  if (result.replayed) c.header('Idempotent-Replayed', 'true')
  return c.json(result.view, 201)
}

export const list: RouteHandler<typeof listRequestsRoute, ApiEnv> = async (c) =>
  c.json(await listRequests(c.get('deps'), c.get('principal'), c.req.valid('query')), 200)

export const get: RouteHandler<typeof getRequestRoute, ApiEnv> = async (c) =>
  c.json(await getRequest(c.get('deps'), c.get('principal'), c.req.valid('param').request_id), 200)

export const update: RouteHandler<typeof updateRequestRoute, ApiEnv> = async (c) => {
  const result = await updateRequest(c.get('deps'), c.get('principal'), {
    requestId: c.req.valid('param').request_id,
    body: c.req.valid('json'),
    idempotencyKey: c.req.valid('header')['idempotency-key'],
  })
  if (result.replayed) c.header('Idempotent-Replayed', 'true')
  return c.json(result.view, 200)
}

export const stop: RouteHandler<typeof stopRequestRoute, ApiEnv> = async (c) =>
  c.json(await stopRequest(c.get('deps'), c.req.valid('param').request_id, { principal: c.get('principal') }), 200)
