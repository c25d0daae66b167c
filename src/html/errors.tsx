// Pages for refused and unknown requests, and any other error a page shows (errorPage).

/** The step an error page offers: where to go to get on, in words. */
export interface NextStep {
  href: string
  label: string
}

/** An error's page: what happened, in the error's own words, the next step when there is one, and the way home. */
export function ErrorPage(props: { title: string; message: string; next?: NextStep | undefined }) {
  return (
    <section class="narrow">
      <h1>{props.title}</h1>
      <p>{props.message}</p>
      <p class="actions">
        {props.next ? (
          <a class="button" href={props.next.href}>
            {props.next.label}
          </a>
        ) : null}
        <a class="button secondary" href="/">
          Go to the home page
        </a>
      </p>
    </section>
  )
}

export function CsrfRefusedPage() {
  return (
    <ErrorPage
      title="This form has expired"
      message="For your safety, Tablewatch only accepts forms it has just shown you. Go back, reload the page, and try again."
    />
  )
}

export function NotFoundPage() {
  return <ErrorPage title="Page not found" message="There is nothing at this address. Check the link, or start from the home page." />
}
