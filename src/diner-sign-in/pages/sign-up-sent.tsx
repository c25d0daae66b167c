// The pages of sign-up by confirmation link: "check your inbox" (the same for
// every address), and the link's page, whose button creates the account (a GET changes nothing).
import { Alert, CsrfInput } from '../../html/components/form'

export interface LocalMail {
  subject: string
  body: string
}

/** A mail body with its links clickable (local development shows the mail it would have sent). */
function MailBody(props: { body: string }) {
  const parts = props.body.split(/(https?:\/\/\S+)/)
  return <p class="mail-body">{parts.map((part) => (/^https?:\/\//.test(part) ? <a href={part}>{part}</a> : part))}</p>
}

/** Local development only: the mails this page's action would have sent, since no mail goes out. */
export function LocalMailShown(props: { mails: LocalMail[]; none: string }) {
  return (
    <section aria-labelledby="local-mail-heading" class="card">
      <h2 id="local-mail-heading">Local development: the message we would have sent</h2>
      {props.mails.length === 0 ? <p>{props.none}</p> : null}
      {props.mails.map((mail) => (
        <article>
          <h3>{mail.subject}</h3>
          <MailBody body={mail.body} />
        </article>
      ))}
    </section>
  )
}

export function SignUpSentPage(props: { localMail: LocalMail[] | null }) {
  return (
    <section class="narrow">
      <h1>Check your inbox</h1>
      <Alert kind="info">
        We sent a message to the address you typed. If it is new here, the message has a link that creates your account; if it already has
        an account, the message says so and you can sign in with its password.
      </Alert>
      <p>
        Nothing arrived after a few minutes? Check the spam folder, or <a href="/signup">sign up again</a>.
      </p>
      {props.localMail ? <LocalMailShown mails={props.localMail} none="No message yet: reload this page in a moment." /> : null}
    </section>
  )
}

export function ConfirmSignUpPage(props: { csrfToken: string; token: string; next: string }) {
  return (
    <section class="narrow">
      <h1>Finish creating your account</h1>
      <form
        method="post"
        action={`/signup/confirm${props.next === '/' ? '' : `?next=${encodeURIComponent(props.next)}`}`}
        class="card form"
      >
        <CsrfInput token={props.csrfToken} />
        <input type="hidden" name="t" value={props.token} />
        <button type="submit" class="button">
          Create my account
        </button>
      </form>
    </section>
  )
}
