// The one error type of the service. An AppError knows its status, headers and body and
// renders itself as the contract's JSON response (`toResponse`); the other formats start from
// the same error: the MCP tool result and HTTP refusal (src/mcp/errors.ts) and the HTML error
// page (src/html/error-page.tsx). Anything that is not an AppError is `internal`: its cause is
// logged, never sent.

const STATUS = {
  unauthorized: 401,
  authorization_revoked: 401,
  insufficient_scope: 403,
  request_not_found: 404,
  reservation_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  csrf_failed: 403,
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
  /** A sign-in step the platform (or its CDN) refused; the message says what to do next. */
  platform_sign_in_refused: 422,
  platform_refuses_cloud: 422,
  platform_not_connected: 409,
  request_limit: 429,
  /** The diner's own sign-in limit (codes an hour, the platform's attempts); with Retry-After when known. */
  sign_in_limit: 429,
  platform_unavailable: 503,
  internal: 500,
} as const

export type ErrorCode = keyof typeof STATUS
export type ErrorStatus = (typeof STATUS)[ErrorCode]

/** One item of the contract's 422 validation body. */
export interface ValidationIssue {
  loc: (string | number)[]
  msg: string
  type: string
}

/** What an error says about itself: the contract's `{code, message}`, with `detail` for a schema failure. */
export interface ErrorBody {
  code: ErrorCode
  message: string
  detail?: ValidationIssue[]
}

export class AppError extends Error {
  readonly code: ErrorCode
  /** Extra response headers (WWW-Authenticate on 401/403). */
  readonly headers: Record<string, string>

  /**
   * `cause`: what went wrong underneath (a platform or storage error this one translates). It is
   * never sent; toAppError writes it into the log line of the error's answer.
   */
  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause })
    this.name = 'AppError'
    this.code = code
    this.headers = headers
  }

  get status(): ErrorStatus {
    return STATUS[this.code]
  }

  toJSON(): ErrorBody {
    return { code: this.code, message: this.message }
  }

  /** The body of the contract's JSON error response. */
  protected contractBody(): object {
    return this.toJSON()
  }

  /**
   * The contract's JSON error response. `init` lets a library that already decided the status
   * and challenge headers (the OAuth resource server on /mcp) keep them: its headers win.
   */
  toResponse(init: { status?: number; headers?: HeadersInit } = {}): Response {
    const headers = new Headers(this.headers)
    new Headers(init.headers).forEach((value, name) => {
      headers.set(name, value)
    })
    headers.set('Content-Type', 'application/json')
    return new Response(JSON.stringify(this.contractBody()), { status: init.status ?? this.status, headers })
  }
}

/**
 * A schema validation failure (`invalid_request`, 422). The REST body is the contract's
 * validation body `{detail: [...]}`; other formats carry `detail` beside code and message.
 */
export class ValidationError extends AppError {
  readonly detail: ValidationIssue[]
  constructor(detail: ValidationIssue[]) {
    super('invalid_request', detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '))
    this.name = 'ValidationError'
    this.detail = detail
  }

  override toJSON(): ErrorBody {
    return { ...super.toJSON(), detail: this.detail }
  }

  protected override contractBody(): object {
    return { detail: this.detail }
  }
}

/** Every error that leaves the service passes here: AppErrors as they are, the rest as `internal`. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) {
    // The user sees the code and message; the operator sees what lay underneath, in one line.
    if (err.cause !== undefined) console.error(`${err.code}: ${err.message}`, 'cause:', describe(err.cause))
    return err
  }
  console.error('internal error', describe(err))
  return new AppError('internal', 'Something went wrong on our side. Please try again in a moment.')
}

function describe(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err)
}

/** The contract's JSON error response for anything thrown: REST, the platform JSON routes. */
export function errorResponse(err: unknown): Response {
  return toAppError(err).toResponse()
}
