// DynamicHomeScreen — app.js (deferred; CSP default-src 'self': no inline handlers).
// Progressive enhancement only: every page works with JavaScript off. Modules add their own
// sections below, each in its own block.

// ScreenKit ------------------------------------------------------------------
(() => {
  'use strict';

  // Modal: Escape closes it as a native dialog would, by submitting the close form (so the
  // server sees the same POST, with its CSRF token, as a click on the close button).
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
    const form = document.querySelector('form[data-modal-dismiss]');
    if (!form) return;
    event.preventDefault();
    if (typeof form.requestSubmit === 'function') form.requestSubmit();
    else form.submit();
  });

  // Modal text input: start typing right away, unless the page already placed focus.
  const field = document.querySelector('.modal__sheet .text-input__field');
  if (field && (document.activeElement === null || document.activeElement === document.body)) {
    field.focus({ preventScroll: true });
  }

  // Forms: one submission per click; a second click while the page loads would post twice.
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== 'post') return;
    if (form.dataset.submitting === 'true') { event.preventDefault(); return; }
    form.dataset.submitting = 'true';
  });
  // Coming back through the history cache must not leave forms locked.
  window.addEventListener('pageshow', () => {
    document.querySelectorAll('form[data-submitting]').forEach((form) => { delete form.dataset.submitting; });
  });
})();

/* Reports: /reports follows /reports/stream and adds each new event as it is written. */
(() => {
  'use strict';
  const root = document.querySelector('[data-live-reports]');
  if (!root || !('EventSource' in window)) return;
  const filter = {
    event: root.dataset.filterEvent, layout: root.dataset.filterLayout,
    item: root.dataset.filterItem, visitor: root.dataset.filterVisitor,
  };
  const rows = root.querySelector('[data-events]');
  const total = root.querySelector('[data-total]');
  const status = root.querySelector('[data-live-status]');
  const source = new EventSource('/reports/stream');

  source.addEventListener('open', () => {
    status.textContent = 'Live';
    root.classList.add('is-live');
  });
  source.addEventListener('error', () => {
    status.textContent = 'Reconnecting…';
    root.classList.remove('is-live');
  });
  source.addEventListener('message', (message) => {
    let event;
    try { event = JSON.parse(message.data); } catch { return; }
    for (const key of Object.keys(filter)) {
      if (filter[key] && event[key] !== filter[key]) return;
    }
    rows.prepend(row(event));
    while (rows.rows.length > 200) rows.deleteRow(-1);
    root.querySelector('.reports__empty')?.remove();
    total.textContent = String(Number(total.textContent) + 1);
    bump('event', event.event);
    if (event.layout) bump('layout', event.layout);
  });

  function row(event) {
    const tr = document.createElement('tr');
    tr.className = 'is-new';
    const time = document.createElement('time');
    time.textContent = event.timestamp;
    const name = document.createElement('span');
    name.className = 'event-name';
    name.textContent = event.event;
    const visitor = document.createElement('code');
    visitor.textContent = (event.visitor || '').slice(0, 8);
    const request = document.createElement('code');
    request.textContent = event.request || '';
    for (const content of [time, name, event.layout || '', event.item || '', visitor, request]) {
      const td = document.createElement('td');
      td.append(content);
      tr.append(td);
    }
    return tr;
  }

  function bump(kind, name) {
    const table = root.querySelector(`[data-counts-${kind}]`);
    if (!table) return;
    let line = [...table.rows].find((tr) => tr.dataset.count === name);
    if (!line) {
      line = table.insertRow(-1);
      line.dataset.count = name;
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = name;
      line.append(th, document.createElement('td'));
      line.cells[1].textContent = '0';
    }
    line.cells[1].textContent = String(Number(line.cells[1].textContent) + 1);
  }
})();
