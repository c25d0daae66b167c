// The victim of the OAuth abuse suites: a user connected through OAuth, with an open request
// made through that connection; its tokens are secrets the suites must never see echoed.
import { newKey } from '../../helpers/api'
import { validSpec } from '../../helpers/requests'
import { seedVenues } from '../../helpers/venues'
import { callTool } from '../../mcp/mcp-client'
import { type Connection, connect } from '../../oauth/oauth-client'
import { keepSecret } from './leaks'

export async function connectedVictim(): Promise<{ victim: Connection; requestId: string }> {
  await seedVenues()
  const victim = await connect()
  keepSecret(victim.accessToken)
  keepSecret(victim.refreshToken)
  const created = await callTool(victim.accessToken, 'svc_create_request', { spec: validSpec(), idempotency_key: newKey() })
  return { victim, requestId: String(created.structured?.id) }
}
