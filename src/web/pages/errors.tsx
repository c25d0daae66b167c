// Pages for refused and unknown requests.

export function CsrfRefusedPage() {
  return (
    <section class="narrow">
      <h1>This form has expired</h1>
      <p>For your safety, Tablewatch only accepts forms it has just shown you. Go back, reload the page, and try again.</p>
      <p>
        <a class="button secondary" href="/">
          Go to the home page
        </a>
      </p>
    </section>
  )
}

export function NotFoundPage() {
  return (
    <section class="narrow">
      <h1>Page not found</h1>
      <p>There is nothing at this address. Check the link, or start from the home page.</p>
      <p>
        <a class="button secondary" href="/">
          Go to the home page
        </a>
      </p>
    </section>
  )
}

/** Any other refusal or failure: the error's own message, written for the user. */
export function ErrorPage(props: { title: string; message: string }) {
  return (
    <section class="narrow">
      <h1>{props.title}</h1>
      <p>{props.message}</p>
      <p>
        <a class="button secondary" href="/">
          Go to the home page
        </a>
      </p>
    </section>
  )
}
