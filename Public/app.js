// DynamicHomeScreen — app.js (deferred; CSP default-src 'self': no inline handlers).
// Progressive enhancement only: every page works with JavaScript off. Modules add their own
// sections below, each in its own block.

// ScreenKit ------------------------------------------------------------------
(() => {
  'use strict';

  // Modal: Escape closes it as a native dialog would, the way its close button does: following
  // its link back, or submitting its form (the same POST, with its CSRF token, as a click).
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
    const close = document.querySelector('[data-modal-dismiss]');
    if (!close) return;
    event.preventDefault();
    if (close instanceof HTMLAnchorElement) close.click();
    else if (typeof close.requestSubmit === 'function') close.requestSubmit();
    else close.submit();
  });

  // Closing a modal gives the focus back to the link that opened it, kept for the tab.
  const here = () => { const url = new URL(location.href); url.searchParams.delete('again'); return url.pathname + url.search; };
  const keep = (key, value) => { try { sessionStorage.setItem(key, value); } catch { /* no storage */ } };
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const link = target?.closest('a[href]');
    if (target?.closest('[data-modal-dismiss]')) keep('closing', '1');
    else if (link) keep('opener', JSON.stringify([here(), link.getAttribute('href')]));
  });
  document.addEventListener('submit', (event) => { if (event.target.matches?.('[data-modal-dismiss]')) keep('closing', '1'); });
  try {
    const [page, href] = JSON.parse(sessionStorage.getItem('opener')) ?? [];
    if (sessionStorage.getItem('closing') && page === here() && !document.querySelector('[data-modal-dismiss]')) {
      [...document.links].find((a) => a.getAttribute('href') === href)?.focus({ preventScroll: true });
    }
    sessionStorage.removeItem('closing');
  } catch { /* no storage: the focus starts at the top */ }

  // My List's button posts and the title's page comes back: the focus goes back to that form's
  // button (now the other way), not to the top of the page.
  document.addEventListener('submit', (event) => {
    const action = event.target.getAttribute?.('action');
    if (action?.startsWith('/my-list/')) keep('listed', action);
  });
  try {
    const listed = sessionStorage.getItem('listed');
    sessionStorage.removeItem('listed');
    if (listed) document.querySelector(`form[action="${CSS.escape(listed)}"] button`)?.focus({ preventScroll: true });
  } catch { /* no storage: the focus starts at the top */ }

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

// Home ------------------------------------------------------------------------
// Grid rows report one horizontal swipe per gesture; "More" scrolls a row in place; the layout
// switch swaps the child in place with an animation. Without JavaScript the same forms post.
// Markers for browser tests: <html data-layout="list|grid"> names the child on screen, and
// <html class="is-swapping"> is set while a layout swap runs (removed when it is done).
(() => {
  'use strict';

  const root = document.documentElement;
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
  const supportsScrollEnd = 'onscrollend' in window;
  const SETTLE_MS = 150;     // quiet time that ends a gesture where scrollend is missing
  const ARMED_MS = 1500;     // how long user input on a row may take to start a scroll

  const csrfToken = () => document.querySelector('meta[name="csrf-token"]')?.content ?? '';
  const homeForm = () => document.querySelector('form.home-form');
  const scrollBehavior = () => (reducedMotion.matches ? 'auto' : 'smooth');

  function report(fields) {
    const body = new URLSearchParams({ ...fields, _csrf: csrfToken() });
    if (navigator.sendBeacon && navigator.sendBeacon('/report', body)) return;
    fetch('/report', { method: 'POST', body, credentials: 'same-origin', keepalive: true }).catch(() => {});
  }

  // Grid rows ----------------------------------------------------------------
  // Written as "More" is without JavaScript (`to` the first tile shown, `via`): a press posts its
  // form, a person's scroll names that tile.

  // Per tile, the scrollLeft that snaps it to the row's start.
  const tilePositions = (row) => {
    const start = row.getBoundingClientRect().left + row.clientLeft + (parseFloat(getComputedStyle(row).scrollPaddingLeft) || 0);
    return [...row.querySelectorAll('.grid-tile')].map((tile) => row.scrollLeft + tile.getBoundingClientRect().left - start);
  };
  // The end of a row does not snap: the first tile at least half shown counts.
  const firstShown = (row, positions, left) => {
    const half = (row.querySelector('.grid-tile')?.offsetWidth ?? 0) / 2;
    const index = positions.findIndex((position) => position >= left - half);
    return index < 0 ? Math.max(0, positions.length - 1) : index;
  };
  // A tile's place in its row, from its id: grid-tile-S-I.
  const placeOf = (tile) => tile?.id.split('-').pop() ?? '';

  // A gesture starts with user input on the row (or a "More" press), moves the row, and ends on
  // scrollend (or SETTLE_MS after the last scroll event). Scrolls nobody asked for (page load,
  // anchor restoration) are ignored: the row is not armed then. A press reports itself.
  const armRow = new WeakMap();

  function enhanceRow(row) {
    if (row.dataset.enhanced) return;
    row.dataset.enhanced = 'true';
    let armedUntil = 0;
    let personUntil = 0;
    let byPerson = false;
    let moving = false;
    let startLeft = row.scrollLeft;
    let settle = 0;

    const arm = (person) => {
      if (!moving) startLeft = row.scrollLeft;
      armedUntil = performance.now() + ARMED_MS;
      personUntil = person ? armedUntil : 0;
    };
    const end = () => {
      clearTimeout(settle);
      if (!moving) return;
      moving = false;
      armedUntil = 0;
      if (byPerson && Math.abs(row.scrollLeft - startLeft) >= 1) {
        const swipe = { event: 'horizontal_swipe', layout: 'grid', row: row.dataset.row ?? '' };
        report({ ...swipe, at: placeOf(row.querySelectorAll('.grid-tile')[firstShown(row, tilePositions(row), row.scrollLeft)]) });
      }
      byPerson = false;
      startLeft = row.scrollLeft;
    };

    for (const type of ['pointerdown', 'wheel', 'keydown', 'touchstart']) {
      row.addEventListener(type, () => arm(true), { passive: true });
    }
    row.addEventListener('scroll', () => {
      const now = performance.now();
      if (!moving && now > armedUntil) { startLeft = row.scrollLeft; return; }
      moving = true;
      if (now <= personUntil) byPerson = true;
      armedUntil = now + ARMED_MS;  // momentum keeps the gesture alive
      if (!supportsScrollEnd) {
        clearTimeout(settle);
        settle = setTimeout(end, SETTLE_MS);
      }
    }, { passive: true });
    if (supportsScrollEnd) row.addEventListener('scrollend', end);
    armRow.set(row, arm);
  }

  // "More": about one screenful of tiles on, back to the start after the end; its redirect is
  // not followed, the row shows that already.
  function scrollRowOn(button, row) {
    const positions = tilePositions(row);
    const tile = row.querySelector('.grid-tile');
    const style = getComputedStyle(row);
    const gap = parseFloat(style.columnGap) || 0;
    const step = tile ? tile.getBoundingClientRect().width + gap : row.clientWidth;
    // The tiles wholly shown: from the snapped start to the row's visible edge; the last of them
    // may reach into the end padding (the second tile on a 375-pixel phone).
    const inner = row.clientWidth - (parseFloat(style.paddingLeft) || 0);
    const visible = Math.max(1, Math.floor((inner + gap) / step + 0.01));
    const last = row.scrollWidth - row.clientWidth;
    const next = positions[Math.min(firstShown(row, positions, row.scrollLeft) + visible, positions.length - 1)];
    const left = row.scrollLeft >= last - 2 || next === undefined ? 0 : Math.min(Math.max(0, next), last);
    const body = new URLSearchParams(new FormData(button.form));
    body.set(button.name, `${row.dataset.row ?? ''}.${firstShown(row, positions, left)}`);
    fetch(button.form.action, { method: 'POST', body, credentials: 'same-origin', redirect: 'manual', keepalive: true })
      .catch(() => {});
    armRow.get(row)?.(false);
    row.scrollTo({ left, behavior: scrollBehavior() });
  }

  document.addEventListener('click', (event) => {
    const more = event.target instanceof Element ? event.target.closest('.grid-row__more') : null;
    if (!more) return;
    const row = more.closest('.grid-row')?.querySelector('.grid-row__tiles');
    if (!row) return;
    event.preventDefault();
    scrollRowOn(more, row);
  });

  function enhanceHome() {
    document.querySelectorAll('.home-grid .grid-row__tiles[data-row]').forEach(enhanceRow);
    const layout = homeForm()?.elements.namedItem('layout');
    if (layout instanceof HTMLInputElement) root.dataset.layout = layout.value;
  }

  // Layout switch -------------------------------------------------------------
  // Each history entry shows what it showed: the content a swap replaces is kept for its entry,
  // and Back or Forward puts it back as it was, without a request, as the browser's own history
  // does with JavaScript off. The layout cookie stays as the switch set it.
  const kept = new Map();  // entry id -> { content, title }
  let entry = history.state?.homeEntry ?? null;
  const newEntry = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

  function currentEntry() {
    if (!entry) {
      entry = newEntry();
      history.replaceState({ ...(history.state ?? {}), homeEntry: entry, layout: root.dataset.layout }, '');
    }
    return entry;
  }

  function swapContent(html, url) {
    const next = new DOMParser().parseFromString(html, 'text/html');
    const incoming = next.querySelector('.home-container__content');
    const current = document.querySelector('.home-container__content');
    if (!incoming || !current) throw new Error('not a home page');
    const leaving = currentEntry();
    current.replaceWith(document.adoptNode(incoming));
    const token = next.querySelector('meta[name="csrf-token"]')?.content;
    if (token) document.querySelector('meta[name="csrf-token"]')?.setAttribute('content', token);
    if (url !== location.href) {
      kept.set(leaving, { content: current, title: document.title });
      entry = newEntry();
      history.pushState({ homeEntry: entry }, '', url);
    }
    document.title = next.title;
    enhanceHome();
    // The layout this entry shows, should it have to be drawn again (see showAgain).
    history.replaceState({ ...(history.state ?? {}), layout: root.dataset.layout }, '');
    return incoming;
  }

  async function swapLayout(form, submitter) {
    root.classList.add('is-swapping');
    try {
      const response = await fetch(form.action, {
        method: 'POST',
        body: new URLSearchParams(new FormData(form, submitter)),
        redirect: 'follow',
        credentials: 'same-origin',
        headers: { Accept: 'text/html' },
      });
      if (!response.ok || !response.redirected) throw new Error(`status ${response.status}`);
      const html = await response.text();
      if (document.startViewTransition && !reducedMotion.matches) {
        const transition = document.startViewTransition(() => { swapContent(html, response.url); });
        await transition.updateCallbackDone;
        await transition.finished.catch(() => {});
      } else {
        const child = swapContent(html, response.url).querySelector('[data-controller]');
        if (child && !reducedMotion.matches) child.dataset.transition = 'cross-fade';
      }
      window.scrollTo({ top: 0, behavior: 'auto' });
      // Keep keyboard users where they were: on the switch, which now offers the way back.
      document.querySelector('.home-form [data-swap]')?.focus({ preventScroll: true });
    } catch {
      // Whatever went wrong, the plain form post still works. In a task of its own: a failure
      // can arrive while this submit event is still being dispatched, when a submit is ignored.
      form.dataset.noSwap = 'true';
      setTimeout(() => {
        delete form.dataset.submitting;
        form.requestSubmit(submitter);
      }, 0);
    } finally {
      root.classList.remove('is-swapping');
    }
  }

  document.addEventListener('submit', (event) => {
    const form = event.target;
    const submitter = event.submitter;
    if (!(form instanceof HTMLFormElement) || !form.matches('.home-form')) return;
    if (!submitter || !submitter.hasAttribute('data-swap') || form.dataset.noSwap) return;
    if (!window.fetch || !window.DOMParser || root.classList.contains('is-swapping')) return;
    event.preventDefault();
    swapLayout(form, submitter);
  }, true);

  // Back and Forward across a swap: the content that entry showed, kept when it was left.
  window.addEventListener('popstate', (event) => {
    const target = event.state?.homeEntry;
    if (!target || target === entry) return;
    const shown = kept.get(target);
    const current = document.querySelector('.home-container__content');
    if (!current) { location.reload(); return; }
    if (!shown) { showAgain(target, event.state.layout); return; }
    kept.set(entry ?? currentEntry(), { content: current, title: document.title });
    kept.delete(target);
    current.replaceWith(shown.content);
    document.title = shown.title;
    entry = target;
    enhanceHome();
    refreshRows();
  });

  // An entry whose content this page never kept (it was reloaded since the swap): drawn again in
  // the layout the entry showed, marked `again`, so no second launch or search is written. A
  // reload would write one and show the layout last chosen instead.
  async function showAgain(target, layout) {
    const url = new URL(location.href);
    url.searchParams.set('again', '1');
    if (layout) url.searchParams.set('layout', layout);
    try {
      const response = await fetch(url, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const next = new DOMParser().parseFromString(await response.text(), 'text/html');
      const incoming = next.querySelector('.home-container__content');
      const current = document.querySelector('.home-container__content');
      if (!incoming || !current) throw new Error('not a home page');
      if (history.state?.homeEntry !== target) return;  // gone on meanwhile
      kept.set(entry ?? currentEntry(), { content: current, title: document.title });
      current.replaceWith(document.adoptNode(incoming));
      const token = next.querySelector('meta[name="csrf-token"]')?.content;
      if (token) document.querySelector('meta[name="csrf-token"]')?.setAttribute('content', token);
      document.title = next.title;
      entry = target;
      enhanceHome();
    } catch {
      if (history.state?.homeEntry === target) location.reload();
    }
  }

  // Back or Forward shows a home as it was left: the visitor's rows are asked again, in the
  // layout on screen (`again`: no second launch).
  async function refreshRows() {
    const toolbar = document.querySelector('.home-container__content .home-toolbar');
    if (location.pathname !== '/' || !toolbar) return;
    const url = new URL(location.href);
    url.searchParams.set('again', '1');
    if (root.dataset.layout) url.searchParams.set('layout', root.dataset.layout);
    try {
      const response = await fetch(url);
      if (!response.ok) return;
      const rows = new DOMParser().parseFromString(await response.text(), 'text/html').querySelectorAll('.home-container__content .personal-row');
      document.querySelectorAll('.home-container__content .personal-row').forEach((row) => row.remove());
      toolbar.after(...rows);
    } catch { /* the rows as drawn stay */ }
  }
  window.addEventListener('pageshow', (event) => {
    if (event.persisted || performance.getEntriesByType('navigation')[0]?.type === 'back_forward') refreshRows();
  });

  // A modal over the home: the home under it leaves the focus order and the accessibility tree.
  document.querySelectorAll('.home-container__frame[data-covered]').forEach((frame) => { frame.inert = true; });

  enhanceHome();
})();

