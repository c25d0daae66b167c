// The request view's document for MCP Apps hosts: one self-contained HTML page (no network, no
// external script or style) that the host renders in a sandboxed frame. It speaks the Apps
// protocol over postMessage (JSON-RPC 2.0): `ui/initialize`, then it draws each
// `ui/notifications/tool-result` the host sends (a request view's structuredContent). The one
// action is a button that asks the host to open the request's approval page (`ui/open-link`),
// and only a page of the service's own origin: approving happens there, signed in, never here.
// Text is set with textContent only, so a request's title cannot inject markup.

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1b1f;--muted:#5b5b66;--bg:#fff;--line:#d9d9e0;--accent:#0b5cad;--accent-fg:#fff;--warn:#8a4b00}
[data-theme=dark]{--fg:#ececf1;--muted:#a8a8b3;--bg:#1b1b1f;--line:#3a3a44;--accent:#7cb7ff;--accent-fg:#0b1b2e;--warn:#ffb870}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
main{padding:14px 16px;max-width:720px}
h1{font-size:1.15rem;margin:0 0 2px;overflow-wrap:anywhere}
h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);margin:14px 0 4px}
p,ul,dl{margin:0}
ul{padding-left:1.1rem}
.status{display:inline-block;font-weight:600;padding:1px 8px;border:1px solid var(--line);border-radius:999px;margin:4px 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}
dt{color:var(--muted)}
dd{margin:0;overflow-wrap:anywhere}
.warn{color:var(--warn)}
button{font:inherit;font-weight:600;margin-top:12px;padding:10px 16px;min-height:44px;border:0;border-radius:8px;background:var(--accent);color:var(--accent-fg);cursor:pointer;width:100%}
@media (min-width:600px){button{width:auto}}
.muted{color:var(--muted)}
`

const SCRIPT = `
(() => {
  const ORIGIN = document.documentElement.dataset.origin;
  const root = document.getElementById('request');
  let nextId = 1;
  const waiting = new Map();
  const send = (message) => window.parent.postMessage(message, '*');
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    send({ jsonrpc: '2.0', id, method, params });
  });
  const notify = (method, params) => send({ jsonrpc: '2.0', method, params });

  const STATUS = {
    needs_approval: ['Waiting for your approval', 'Nothing is watched or booked until you approve this request on Tablewatch.'],
    active: ['Watching', 'Tablewatch is checking for a matching table and tells you when it finds one.'],
    awaiting_verification: ['Booking being verified', 'A booking may have been made. It counts only once your platform account shows it; Tablewatch is checking.'],
    confirmed: ['Confirmed', 'The reservation is on your platform account.'],
    expired: ['Expired', 'The request ended without a booking. Nothing was booked.'],
    stopped: ['Stopped', 'Monitoring ended. Stopping never cancels a reservation.'],
    revoked: ['Ended', 'The connection that created it was disconnected. Reconnect and create a new request.'],
  };
  const ALERT_ONLY_ACTIVE = 'Tablewatch is checking for a matching table and alerts you; booking it is up to you.';

  const el = (tag, text, className) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  };
  const section = (title, ...children) => {
    const part = el('section');
    part.append(el('h2', title), ...children);
    return part;
  };
  const fields = (pairs) => {
    const list = el('dl');
    for (const [name, value] of pairs) list.append(el('dt', name), el('dd', value));
    return list;
  };
  const approvalLink = (url) => {
    if (typeof url !== 'string' || !ORIGIN) return null;
    try {
      const link = new URL(url);
      return link.origin === ORIGIN && link.pathname.startsWith('/requests/') ? link.href : null;
    } catch { return null; }
  };

  function showText(text) {
    root.replaceChildren(el('p', text, 'muted'));
    resized();
  }

  function show(view) {
    const [label, next] = STATUS[view.status] || [String(view.status), ''];
    const parts = [];
    parts.push(el('h1', view.title || 'Table request'));
    parts.push(el('p', label, 'status'));
    const watching = [
      ['Restaurants', (view.venue_ids || []).map((id) => 'venue ' + id).join(', ')],
      ['Dates', (view.dates || []).join(', ')],
      ['Time', (view.earliest_time || '') + '–' + (view.latest_time || '') + ' ' + (view.timezone || '')],
      ['Party', String(view.party_size)],
      ['Seating', String(view.seating)],
      ['Mode', view.mode === 'auto_book' ? 'Book one table (after your approval)' : 'Alert only'],
    ];
    parts.push(section('What it watches', fields(watching)));
    const reservations = view.reservations || [];
    const alerts = (view.trace || []).filter((entry) => /table/i.test(entry.message)).slice(-3);
    const found = el('ul');
    for (const r of reservations) {
      found.append(el('li', r.venue_name + ', ' + r.date + ' ' + r.time + ', party of ' + r.party_size + (r.verified ? ' — verified on your account' : ' — not verified yet')));
    }
    for (const entry of alerts) found.append(el('li', entry.message));
    parts.push(section('Tables found', found.childElementCount ? found : el('p', view.last_checked_at ? 'None yet.' : 'None yet; not checked yet.', 'muted')));
    const nextParts = [el('p', view.mode === 'alert_only' && view.status === 'active' ? ALERT_ONLY_ACTIVE : next)];
    if (view.status_reason) nextParts.push(el('p', view.status_reason, 'muted'));
    for (const w of view.warnings || []) nextParts.push(el('p', w.message, 'warn'));
    const link = view.status === 'needs_approval' ? approvalLink(view.action_url) : null;
    if (link) {
      const button = el('button', 'Review and approve on Tablewatch');
      button.type = 'button';
      button.addEventListener('click', () => {
        request('ui/open-link', { url: link }).catch(() => {
          nextParts.push(el('p', 'Open this link to approve: ' + link));
        });
      });
      nextParts.push(button);
    }
    parts.push(section('What happens next', ...nextParts));
    root.replaceChildren(...parts);
    resized();
  }

  function showResult(result) {
    if (!result || result.isError) {
      const text = result && result.content && result.content[0] && result.content[0].text;
      let message = 'The request could not be read.';
      try { message = JSON.parse(text).message || message; } catch {}
      return showText(message);
    }
    const view = result.structuredContent;
    if (view && typeof view.id === 'string' && typeof view.status === 'string') show(view);
    else showText('Nothing to show.');
  }

  function theme(context) {
    if (context && (context.theme === 'dark' || context.theme === 'light')) document.documentElement.dataset.theme = context.theme;
  }

  function resized() {
    const box = document.documentElement.getBoundingClientRect();
    notify('ui/notifications/size-changed', { width: Math.ceil(box.width), height: Math.ceil(box.height) });
  }

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.id !== undefined && !message.method) {
      const pending = waiting.get(message.id);
      if (!pending) return;
      waiting.delete(message.id);
      if (message.error) pending.reject(message.error); else pending.resolve(message.result);
      return;
    }
    if (message.method === 'ui/notifications/tool-result') showResult(message.params);
    else if (message.method === 'ui/notifications/host-context-changed') theme(message.params);
    else if (message.method === 'ui/resource-teardown' && message.id !== undefined) send({ jsonrpc: '2.0', id: message.id, result: {} });
    else if (message.id !== undefined) send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  });

  request('ui/initialize', {
    protocolVersion: '2026-01-26',
    appInfo: { name: 'tablewatch-request', version: '1.0.0' },
    appCapabilities: {},
  }).then((answer) => {
    theme(answer && answer.hostContext);
    notify('ui/notifications/initialized', {});
  }, () => showText('This host did not start the view.'));
})();
`

async function sha256Source(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`
}

/**
 * The document's own policy, beside what the host enforces from the resource's `_meta.ui.csp`:
 * nothing may load or connect anywhere; only this page's own script and style (by hash) run.
 */
async function requestViewPolicy(): Promise<string> {
  return [
    "default-src 'none'",
    `script-src ${await sha256Source(SCRIPT)}`,
    `style-src ${await sha256Source(STYLE)}`,
    "img-src 'none'",
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ')
}

const escapeAttribute = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;')

/** The view's HTML for a service at this origin (the only origin whose approval page it opens). */
export async function requestViewPage(origin: string): Promise<string> {
  const policy = await requestViewPolicy()
  return `<!doctype html>
<html lang="en" data-origin="${escapeAttribute(origin)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tablewatch request</title>
<style>${STYLE}</style>
</head>
<body>
<main id="request" aria-live="polite"><p class="muted">Loading the request…</p></main>
<script>${SCRIPT}</script>
</body>
</html>
`
}
