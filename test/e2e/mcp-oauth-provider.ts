// The MCP SDK's OAuth client hooks, as a native MCP host implements them: it keeps the client
// registration and tokens in memory, listens on a loopback port for the redirect back, and
// "opens the user's browser" by driving the Playwright page through sign-in and consent.

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import type { Page } from 'playwright-core'

export class BrowserOAuthProvider implements OAuthClientProvider {
  registered: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  authorizationUrl: URL | undefined
  #verifier = ''
  #refuse = false
  #server: Server
  #port: number
  #code: Promise<string>
  #deliver: (code: string) => void = () => {}

  /**
   * A host using a Client ID Metadata Document sets this: the SDK then sends the URL as its
   * client_id instead of registering, when the server advertises support.
   */
  clientMetadataUrl: string | undefined

  /**
   * How the host authenticates at the token endpoint. A hosted assistant that registers as a
   * confidential client gets a new client at every registration, even with the same metadata.
   */
  tokenEndpointAuthMethod: 'none' | 'client_secret_post' = 'none'

  private constructor(
    private readonly page: Page,
    private readonly consent: (page: Page) => Promise<void>,
    server: Server,
  ) {
    this.#server = server
    this.#port = (server.address() as AddressInfo).port
    this.#code = this.#nextCode()
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${this.#port}`)
      const code = url.searchParams.get('code')
      res.writeHead(code ? 200 : 400, { 'Content-Type': 'text/plain' }).end(code ? 'Connected. You can close this window.' : 'No code.')
      if (code) this.#deliver(code)
    })
  }

  /** Starts the loopback listener first: its port is part of the registered redirect URI. */
  static async create(page: Page, consent: (page: Page) => Promise<void>, clientMetadataUrl?: string): Promise<BrowserOAuthProvider> {
    const server = createServer()
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
    const provider = new BrowserOAuthProvider(page, consent, server)
    provider.clientMetadataUrl = clientMetadataUrl
    return provider
  }

  #nextCode(): Promise<string> {
    return new Promise((resolve) => {
      this.#deliver = resolve
    })
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.#port}/callback`
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Tablewatch e2e assistant',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.tokenEndpointAuthMethod,
    }
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.registered
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.registered = info
  }

  tokens(): OAuthTokens | undefined {
    return this.saved
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier
  }

  codeVerifier(): string {
    return this.#verifier
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined
    if (scope === 'all' || scope === 'client') this.registered = undefined
  }

  /** From now on a new consent is not given: the host stops at the authorization URL. */
  refuseNewConsent(): void {
    this.#refuse = true
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrl = url
    if (this.#refuse) return
    await this.page.goto(url.href)
    await this.consent(this.page)
  }

  /** The code the browser brought back to the loopback redirect URI. */
  async callbackCode(): Promise<string> {
    const code = await this.#code
    this.#code = this.#nextCode()
    return code
  }

  async close(): Promise<void> {
    await new Promise<void>((ok) => this.#server.close(() => ok()))
  }
}
