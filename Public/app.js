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
