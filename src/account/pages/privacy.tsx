// The privacy page: what the service stores for a diner, for how long, who sees it, and the
// risk the reservation platform's terms put on the diner's account. Public (connector
// directories link it before anyone signs up); it states what the code does, nothing more.

export function PrivacyPage(props: { baseUrl: string }) {
  return (
    <>
      <h1>Privacy</h1>
      <p class="lead">
        Tablewatch watches a reservation platform for tables you ask for and, only when you approve, books one. This page says what it keeps
        to do that, for how long, and who can see it. It applies to this deployment, {props.baseUrl}.
      </p>

      <section class="card">
        <h2>What Tablewatch stores</h2>
        <ul>
          <li>Your account: your email address and a salted, peppered hash of your password (never the password itself).</li>
          <li>
            Your platform connection: the session token the platform hands out when you connect, encrypted at rest. Your platform password
            is used once to sign in and is not stored.
          </li>
          <li>
            Your requests: the restaurants, dates, times, party size and limits you asked for, their history (what was found, alerted and
            booked) and the reservations they made.
          </li>
          <li>
            Your alerts: the inbox, your alert settings, and where alerts go (email, a webhook you set, browser push subscriptions,
            encrypted).
          </li>
          <li>
            Your assistants: the connections you allowed and personal access tokens, stored only as hashes, with when they were last used.
          </li>
          <li>Your paired devices, if you pair one.</li>
        </ul>
        <p>It does not sell or share any of this, and it runs no advertising or third-party tracking.</p>
      </section>

      <section class="card">
        <h2>For how long</h2>
        <ul>
          <li>
            Access tokens of an assistant last 15 minutes; an assistant's connection ends 30 days after you allowed it; personal access
            tokens after 90 days.
          </li>
          <li>Disconnecting the platform on the Settings page deletes its stored token at once and stops every open request.</li>
          <li>Disconnecting an assistant or revoking a token on the Assistants page ends it at once, and the requests it created.</li>
          <li>
            Everything else is kept while your account exists, so your requests and reservations stay readable. To have your account and its
            data deleted, write to the operator of this deployment from your account's email address.
          </li>
        </ul>
      </section>

      <section class="card">
        <h2>Who sees it</h2>
        <ul>
          <li>You, signed in.</li>
          <li>
            The assistants you connect, within the permissions you gave them: an assistant sees only the requests of its own connection,
            never another assistant's or another user's.
          </li>
          <li>The reservation platform, which sees the searches and bookings made with your account, as if you made them.</li>
          <li>
            The operator of this deployment, and its infrastructure: it runs on Cloudflare (its database, its email), which processes the
            data to run the service.
          </li>
        </ul>
      </section>

      <section class="card">
        <h2>The platform's terms</h2>
        <p>
          The reservation platform's terms forbid automated access, though they allow assistants to manage reservations on a user's behalf
          with the platform's authorization. Tablewatch acts with your account, so the platform may limit or deactivate that account. You
          accept that risk when you connect it, and you can disconnect at any time.
        </p>
      </section>
    </>
  )
}
