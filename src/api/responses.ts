// The error responses every route declares, so the OpenAPI document names each one.
import type { ErrorStatus } from '../operations/operation'
import { ErrorBody, ValidationErrorBody } from '../request-use-cases/schemas'

const DESCRIPTIONS: Record<ErrorStatus, string> = {
  401: 'Missing, expired or revoked access token (`unauthorized`, `authorization_revoked`).',
  403: 'The token lacks the scope this route needs (`insufficient_scope`).',
  404: 'Not found for this token (`request_not_found`, `reservation_not_found`).',
  409: 'Conflict (`revision_conflict`, `idempotency_conflict`, `overlapping_booking_request`, `existing_reservation`, `outcome_unknown`, `request_closed`).',
  413: 'The body is too large (`payload_too_large`).',
  415: 'The body is not JSON (`unsupported_media_type`).',
  429: 'The user already has 20 open requests (`request_limit`).',
}

/** A JSON body: its schema, and an example when the operation gives one. */
const json = <T>(schema: T, example?: unknown) => ({ 'application/json': { schema, ...(example === undefined ? {} : { example }) } })

export function errorResponses<S extends ErrorStatus>(...statuses: S[]) {
  const out = {} as Record<S, { description: string; content: ReturnType<typeof json<typeof ErrorBody>> }>
  for (const status of statuses) out[status] = { description: DESCRIPTIONS[status], content: json(ErrorBody) }
  return {
    ...out,
    422: {
      description: 'Invalid input: a `detail` list for schema failures, or `{code, message}` for a named rule.',
      content: json(ValidationErrorBody.or(ErrorBody)),
    },
  }
}

export const security = [{ bearerAuth: [] }]
export { json }
