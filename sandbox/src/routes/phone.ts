// The sandbox's "phone": the texts the platform would have sent (the codes of code sign-ins), as
// a page, like the service's outbox of emails. Local only: reached through the control API.
import { html } from 'hono/html'
import type { Text } from '../store/codes'

export function phonePage(texts: Text[], now: number) {
  const ago = (at: number) => `${Math.max(0, Math.round((now - at) / 1000))} s ago`
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Sandbox phone</title>
      </head>
      <body>
        <main>
          <h1>Sandbox phone</h1>
          <p>Text messages the sandbox platform sent (the codes of code sign-ins), newest first.</p>
          ${
            texts.length === 0
              ? html`<p>No text messages yet.</p>`
              : html`<ol>
                  ${texts.map(
                    (t) =>
                      html`<li><p><strong>To ${t.mobileNumber}</strong>, <time datetime="${new Date(t.sentAt).toISOString()}">${ago(t.sentAt)}</time></p><p>${t.body}</p></li>`,
                  )}
                </ol>`
          }
        </main>
      </body>
    </html>`
}
