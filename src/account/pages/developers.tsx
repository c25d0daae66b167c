// The developers page, for people: the three ways to connect, scopes, and examples.

import { SCOPES } from '../../core/scopes'
import { CodeBlock as Code } from '../../html/components/code-block'
import { SKILL_VERSION } from '../skill'
import { SCOPE_DESCRIPTIONS } from './assistants'
import { WebhookDocs } from './developers-webhook'

export function DevelopersPage(props: { baseUrl: string }) {
  const api = `${props.baseUrl}/api/v1`
  return (
    <>
      <h1>Developers</h1>
      <p class="lead">
        Connect an AI assistant or your own script to Tablewatch. It can search restaurants, preview and create requests, and follow them.
        Only the user can approve a booking, on this site.
      </p>
      <nav class="toc" aria-label="On this page">
        <a href="#rest">REST with a token</a>
        <a href="#mcp">MCP with OAuth</a>
        <a href="#skill">The skill file</a>
        <a href="#scopes">Scopes</a>
        <a href="#rules">Rules for assistants</a>
        <a href="#webhook">Webhook alerts</a>
      </nav>

      <section id="rest" class="card">
        <h2>REST with a personal access token</h2>
        <ol>
          <li>
            Sign in and create a token on the <a href="/assistants">Assistants</a> page. It starts with <code>spt_</code>, is shown once and
            is valid for 90 days.
          </li>
          <li>Store it in your assistant's configuration or secret store. Never paste it into a chat.</li>
          <li>
            Send it as <code>Authorization: Bearer …</code> to <code>{api}</code>.
          </li>
        </ol>
        <p>
          The full contract is the OpenAPI 3.1 document at <a href="/api/v1/openapi.json">{`${api}/openapi.json`}</a>.
        </p>
        <h3>Examples</h3>
        <Code id="code-rest" label="the REST example">{`# Is the platform connected?
curl -s ${api}/capabilities \\
  -H "Authorization: Bearer $TABLEWATCH_TOKEN"

# Find a restaurant's venue_id and time zone
# (Marrow & Smoke is one of the sandbox's venues under npm start)
curl -s "${api}/restaurants?q=marrow" \\
  -H "Authorization: Bearer $TABLEWATCH_TOKEN"

# Preview, then create with an idempotency key
# (send the same key again when retrying)
curl -s -X POST ${api}/requests/preview \\
  -H "Authorization: Bearer $TABLEWATCH_TOKEN" \\
  -H "Content-Type: application/json" -d @spec.json
curl -s -X POST ${api}/requests \\
  -H "Authorization: Bearer $TABLEWATCH_TOKEN" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: dinner-2026-12-05-marrow-1" -d @spec.json

# Follow it: when the user asks, or at most every few minutes
curl -s ${api}/requests/sr_… \\
  -H "Authorization: Bearer $TABLEWATCH_TOKEN"`}</Code>
        <p>A spec, for example:</p>
        <Code id="code-mcp" label="the MCP configuration">{`{
  "venue_ids": [60108],
  "dates": ["2026-12-05", "2026-12-06"],
  "earliest_time": "18:30",
  "latest_time": "21:00",
  "timezone": "America/New_York",
  "party_size": 2,
  "mode": "auto_book",
  "max_cancellation_fee_per_person": 25,
  "fee_review_hours": 3,
  "expires_at": "2026-12-06T18:00:00-05:00"
}`}</Code>
      </section>

      <section id="mcp" class="card">
        <h2>MCP with OAuth</h2>
        <p>
          Add <code>{`${props.baseUrl}/mcp`}</code> as a remote MCP server (Streamable HTTP). Your MCP host registers itself, opens sign-in
          and consent in your browser, and gets tokens through OAuth 2.1 with PKCE. The grant lasts 30 days; you can disconnect it on the{' '}
          <a href="/assistants">Assistants</a> page.
        </p>
        <p>
          Building a host? Prefer a Client ID Metadata Document (an https <code>client_id</code>): it needs no registration. Dynamic
          registration works too; identical registrations of a public client from one address share one client.
        </p>
        <p>
          Discovery: <code>{`${props.baseUrl}/.well-known/oauth-authorization-server`}</code> and{' '}
          <code>{`${props.baseUrl}/.well-known/oauth-protected-resource/mcp`}</code>. The tools are <code>svc_find_restaurants</code>,{' '}
          <code>svc_preview_request</code>, <code>svc_create_request</code>, <code>svc_update_request</code>, <code>svc_get_request</code>,{' '}
          <code>svc_list_requests</code>, <code>svc_stop_request</code> and <code>svc_get_reservation</code>.
        </p>
      </section>

      <section id="skill" class="card">
        <h2>The skill file</h2>
        <p>
          A plain-text instruction file (version {SKILL_VERSION}) tells an assistant everything it needs: endpoints, scopes, the flow, and
          the rules. Give it to any assistant that can make HTTP calls.
        </p>
        <p>
          <a class="button secondary" href="/developers/skill.md">
            Open skill.md
          </a>
        </p>
        <Code id="code-skill" label="the skill command">{`curl -s ${props.baseUrl}/developers/skill.md
# the same file:
curl -s -H "Accept: text/markdown" ${props.baseUrl}/developers`}</Code>
      </section>

      <section id="scopes" class="card">
        <h2>Scopes</h2>
        <dl class="facts wide">
          {SCOPES.map((scope) => (
            <>
              <dt>
                <code>{scope}</code>
              </dt>
              <dd>{SCOPE_DESCRIPTIONS[scope]}</dd>
            </>
          ))}
        </dl>
        <p class="muted">A token sees only the requests and reservations created through that same token.</p>
      </section>

      <section id="rules" class="card">
        <h2>Rules for assistants</h2>
        <ul>
          <li>
            Never say a table is booked until a reservation has <code>verified: true</code>.
          </li>
          <li>
            Always give the user the <code>action_url</code> of an <code>auto_book</code> request: nothing happens until they approve it
            there.
          </li>
          <li>Never ask for a token in the chat, and never repeat one.</li>
          <li>Confirm the previewed spec with the user before creating.</li>
          <li>No second request for the same dinner while one is open: update or stop the first.</li>
          <li>Stopping a request never cancels a reservation.</li>
          <li>
            Make sure the user knows: the reservation platform's terms prohibit automated access and it may deactivate accounts that use
            such tools.
          </li>
        </ul>
      </section>
      <WebhookDocs />
    </>
  )
}
