// Small progressive enhancements; every page works without this file.

// A page that showed a secret once (the new token) replaces its URL, so that reloading asks
// for the plain page again instead of re-sending the form.
const replaceWith = document.querySelector('[data-replace-url]')
if (replaceWith) {
  history.replaceState(null, '', replaceWith.getAttribute('data-replace-url'))
}

// Copy buttons: data-copy names the element whose text is copied.
for (const button of document.querySelectorAll('button[data-copy]')) {
  const source = document.getElementById(button.getAttribute('data-copy'))
  if (!source || !navigator.clipboard) continue
  button.hidden = false
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(source.textContent.trim())
      button.textContent = 'Copied'
    } catch {
      button.textContent = 'Select and copy it by hand'
    }
    setTimeout(() => {
      button.textContent = 'Copy'
    }, 2500)
  })
}

// Times without a restaurant are shown in the viewer's zone: tell the server which one it is.
try {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
  if (zone && !document.cookie.split('; ').includes(`tz=${encodeURIComponent(zone)}`)) {
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Firefox and Safari before 18.4
    document.cookie = `tz=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`
  }
} catch {}
