// The ExecutionContext the OAuth library's fetch asks for, when a grant's Durable Object calls it
// (src/auth/grant-object.ts). A Durable Object has no ExecutionContext of its own, and the
// authorization server never uses the one it is given (1.2.3 passes it on only to API handlers,
// which an OAuthAuthorizationServer has none of): waitUntil and abort go to the object's state,
// what an object cannot offer throws.
export class ObjectContext implements ExecutionContext {
  readonly #state: DurableObjectState

  constructor(state: DurableObjectState) {
    this.#state = state
  }

  get exports(): Cloudflare.Exports {
    return this.#state.exports
  }

  get props(): unknown {
    return this.#state.props
  }

  get tracing(): Tracing {
    throw new Error('A Durable Object offers no tracing context.')
  }

  waitUntil(promise: Promise<unknown>): void {
    this.#state.waitUntil(promise)
  }

  passThroughOnException(): void {}

  mapVirtualHost(): string {
    throw new Error('A Durable Object cannot map virtual hosts.')
  }

  abort(reason?: unknown): void {
    this.#state.abort(String(reason))
  }
}
