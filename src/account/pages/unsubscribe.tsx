// The page behind an alert email's unsubscribe link: a GET never changes anything (mail
// scanners open links), the button (or a mail client's one-click POST) turns email alerts off.

export function UnsubscribePage(props: { userId: string; token: string }) {
  return (
    <section class="narrow">
      <h1>Stop alert emails?</h1>
      <p>Tablewatch will stop emailing you about tables and requests. The inbox in the app and your webhook are not changed.</p>
      <form method="post" action="/unsubscribe">
        <input type="hidden" name="u" value={props.userId} />
        <input type="hidden" name="t" value={props.token} />
        <button type="submit">Stop alert emails</button>
      </form>
    </section>
  )
}

export function UnsubscribedPage() {
  return (
    <section class="narrow">
      <h1>Alert emails are off</h1>
      <p>
        You will get no more alert emails. To turn them on again, sign in and open <a href="/settings#alerts">Settings</a>.
      </p>
    </section>
  )
}
