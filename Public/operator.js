// DynamicHomeScreen — operator.js (deferred, after app.js): the report and admin pages' script,
// linked by those pages only, so a visitor's first visit downloads none of it.

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
  const visitors = root.querySelector('[data-visitors]');
  const status = root.querySelector('[data-live-status]');
  // From the last line the page counts: the lines written since it was drawn come first.
  const source = new EventSource(`/reports/stream${root.dataset.after ? `?after=${encodeURIComponent(root.dataset.after)}` : ''}`);
  let recount = null;

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
    if (event.visitor) recountVisitors();
  });

  // Whether an event's visitor is new to the range is not known here: the page's figures are
  // asked again, at most every two seconds while events come.
  function recountVisitors() {
    if (!visitors || recount) return;
    recount = setTimeout(async () => {
      try {
        const response = await fetch(`/reports.json${location.search}`, { headers: { Accept: 'application/json' } });
        const figures = response.ok ? await response.json() : null;
        if (figures && typeof figures.visitors === 'number' && String(figures.visitorsExact) === visitors.dataset.exact) {
          visitors.textContent = figures.visitorsExact ? String(figures.visitors)
            : `\u2248\u202F${figures.visitors} \u00B1\u202F${figures.visitorsError}`;
        }
      } catch { /* the next event asks again */ }
      recount = null;
    }, 2000);
  }

  function row(event) {
    const tr = document.createElement('tr');
    tr.className = 'is-new';
    const time = document.createElement('time');
    time.textContent = event.timestamp;
    const name = document.createElement('span');
    name.className = 'event-name';
    name.textContent = event.event;
    // The start of the id, which the visitor filter takes; the whole id in the link and title.
    const visitor = document.createDocumentFragment();
    if (event.visitor) {
      const link = document.createElement('a');
      link.className = 'visitor-link';
      link.href = `/reports?visitor=${encodeURIComponent(event.visitor)}`;
      link.title = event.visitor;
      const code = document.createElement('code');
      code.textContent = event.visitor.slice(0, 8);
      link.append(code);
      visitor.append(link);
    }
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

/* Admin: the instances table follows every instance's version while the page is shown, so an
   apply is seen reaching each one; the forms and the focus are left where they are. */
(() => {
  'use strict';
  const root = document.querySelector('[data-live-instances]');
  if (!root || !('fetch' in window) || !('content' in document.createElement('template'))) return;
  const url = root.dataset.liveInstances;
  let timer = null;
  let asking = false;

  async function ask() {
    timer = null;
    if (document.hidden || asking) return;
    asking = true;
    try {
      const response = await fetch(url, { headers: { Accept: 'text/html' }, cache: 'no-store', credentials: 'same-origin' });
      // The part says so itself when the database is away; any other answer (a sign-in that
      // ended, a busy server) leaves the table as it is until the next second.
      if (response.ok) {
        const template = document.createElement('template');
        template.innerHTML = await response.text();
        // A link in the part with the focus (the kept edit's) stays until the focus leaves it.
        if (!root.contains(document.activeElement) && template.content.querySelector('table.admin-instances, [data-instances]')) {
          root.replaceChildren(template.content);
        }
      }
    } catch { /* offline for a moment: the next second asks again */ }
    asking = false;
    schedule();
  }

  function schedule() {
    if (!document.hidden && timer === null && !asking) timer = setTimeout(ask, 1000);
  }

  document.addEventListener('visibilitychange', () => {
    if (document.hidden) {
      clearTimeout(timer);
      timer = null;
    } else {
      schedule();
    }
  });
  schedule();
})();
