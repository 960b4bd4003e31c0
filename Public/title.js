/* The title's and the watch page's own script, linked by those pages only (the home does not
   load it). */

/* A title's page: Back or Forward shows it as it was left, but the visitor may have played or
   listed the title since (the position control saves in place, so Back comes straight here): its
   buttons and the position under them are asked again, as the home's rows are. Drawing the page
   writes no event. */
(() => {
  'use strict';
  if (!document.querySelector('.item-screen__actions')) return;
  async function refreshActions() {
    try {
      const response = await fetch(location.href, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
      if (!response.ok) return;
      const next = new DOMParser().parseFromString(await response.text(), 'text/html');
      const incoming = next.querySelector('.item-screen__actions');
      const current = document.querySelector('.item-screen__actions');
      if (!incoming || !current) return;
      const focused = [...current.querySelectorAll('button')].indexOf(document.activeElement);
      const progress = next.querySelector('.item-screen__progress');
      document.querySelector('.item-screen__progress')?.remove();
      current.replaceWith(document.adoptNode(incoming));
      if (progress) incoming.after(document.adoptNode(progress));
      if (focused >= 0) incoming.querySelectorAll('button')[focused]?.focus({ preventScroll: true });
    } catch { /* the buttons as drawn stay */ }
  }
  window.addEventListener('pageshow', (event) => {
    if (event.persisted || performance.getEntriesByType('navigation')[0]?.type === 'back_forward') refreshActions();
  });
})();

/* Watch: the position control saves itself. While it moves the time beside it follows; when it
   is let go (or the keys stop) the position is posted (with `enhanced`, answered 204), the same post the Save
   button makes without JavaScript. Marker for browser tests: data-saved on the form names the
   last position the server took. */
(() => {
  'use strict';
  const form = document.querySelector('form.watch-progress');
  if (!form) return;
  const range = form.querySelector('input[type="range"]');
  const output = form.querySelector('output');
  const clock = (seconds) => {
    const s = seconds % 60, m = Math.floor(seconds / 60) % 60, h = Math.floor(seconds / 3600);
    const two = (n) => String(n).padStart(2, '0');
    return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${Math.floor(seconds / 60)}:${two(s)}`;
  };
  const text = () => `${clock(Number(range.value))} of ${clock(Number(range.max))}`;
  range.addEventListener('input', () => {
    output.textContent = text();
    range.setAttribute('aria-valuetext', text());
  });
  let sending = Promise.resolve();
  function save() {
    const position = range.value;
    const body = new URLSearchParams(new FormData(form));
    body.set('enhanced', '1');
    sending = sending.then(() => fetch(form.action, { method: 'POST', body, credentials: 'same-origin' }))
      .then((response) => {
        if (response.status === 204) {
          form.dataset.saved = position;
          output.textContent = `${text()} · saved`;
        } else {
          output.textContent = `${text()} · not saved (${response.status})`;
        }
      })
      .catch(() => { output.textContent = `${text()} · not saved`; });
  }
  // The keyboard changes the position once per key press: save once the keys have stopped.
  let timer = 0;
  range.addEventListener('change', () => { clearTimeout(timer); timer = setTimeout(save, 400); });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    delete form.dataset.submitting;
    // The button saves what the timer was about to: one save, one event.
    clearTimeout(timer);
    save();
  });
})();
