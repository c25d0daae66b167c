// Whether the service can watch and book for this user now. REST only: on MCP the preview's
// executor answers the same question.
import { z } from '@hono/zod-openapi'
import { capabilitiesOf } from '../executors/executor-readiness'
import { Capabilities } from '../request-use-cases/schemas'
import { CAPABILITIES_EXAMPLE } from './examples'
import { fresh, operation } from './operation'

export const capabilities = operation({
  name: 'capabilities',
  scope: 'requests:read',
  input: z.object({}),
  output: Capabilities,
  run: (deps, principal) => fresh(capabilitiesOf(deps, principal.userId)),
  rest: {
    method: 'get',
    path: '/capabilities',
    operationId: 'getCapabilities',
    example: CAPABILITIES_EXAMPLE,
    tags: ['Capabilities'],
    summary: 'Whether the service can watch and book for this user now',
    status: 200,
    description: 'Executor readiness',
    errors: [401, 403],
    request: {},
    input: () => ({}),
    skill: {
      note: '`executor.ready`; when false, `executor.reason` (`resy_not_connected`, `resy_reauth_required`, `payment_method_missing`)',
    },
  },
  tool: null,
})
