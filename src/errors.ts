// The one error type of the service. REST renders it as the contract's `{code, message}`
// body, MCP as an `isError` tool result. Anything that is not an AppError is `internal`:
// its cause is logged, never sent.

const STATUS = {
  unauthorized: 401,
  authorization_revoked: 401,
  insufficient_scope: 403,
  request_not_found: 404,
  reservation_not_found: 404,
  not_found: 404,
  revision_conflict: 409,
  idempotency_conflict: 409,
  overlapping_booking_request: 409,
  existing_reservation: 409,
  outcome_unknown: 409,
  request_closed: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_required: 422,
  venue_not_found: 422,
  venue_timezone_mismatch: 422,
  dates_out_of_range: 422,
  invalid_expiry: 422,
  grant_expires_first: 422,
  invalid_request: 422,
  risk_not_acknowledged: 422,
  platform_login_failed: 422,
  platform_not_connected: 409,
  request_limit: 429,
  platform_unavailable: 503,
  internal: 500,
} as const

export type ErrorCode = keyof typeof STATUS
export type ErrorStatus = (typeof STATUS)[ErrorCode]

export class AppError extends Error {
  readonly code: ErrorCode
  /** Extra response headers (WWW-Authenticate on 401/403). */
  readonly headers: Record<string, string>

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.name = 'AppError'
    this.code = code
    this.headers = headers
  }

  get status(): ErrorStatus {
    return STATUS[this.code]
  }

  toJSON(): { code: ErrorCode; message: string } {
    return { code: this.code, message: this.message }
  }
}

export function statusOf(code: ErrorCode): ErrorStatus {
  return STATUS[code]
}

/** Every error that leaves the service passes here: AppErrors as they are, the rest as `internal`. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err
  console.error('internal error', err instanceof Error ? (err.stack ?? err.message) : String(err))
  return new AppError('internal', 'Something went wrong on our side. Please try again in a moment.')
}

/** One item of the contract's 422 validation body. */
export interface ValidationIssue {
  loc: (string | number)[]
  msg: string
  type: string
}

/** Schema validation failure: rendered as `{detail: [...]}` with 422. */
export class ValidationError extends Error {
  readonly detail: ValidationIssue[]
  constructor(detail: ValidationIssue[]) {
    super(detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '))
    this.name = 'ValidationError'
    this.detail = detail
  }
}
