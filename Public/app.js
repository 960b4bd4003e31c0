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

  // Modal: start keyboard focus inside the sheet, on the field or the main action, unless the
  // page already placed it (e.g. autofocus).
  const sheet = document.querySelector('.modal__sheet');
  if (sheet && (document.activeElement === null || document.activeElement === document.body)) {
    const target = sheet.querySelector('.text-input__field, .onboarding__actions .button');
    if (target) target.focus({ preventScroll: true });
  }

  // Forms: one submission per click; a second click while the page loads would post twice.
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== 'post') return;
    if (form.dataset.submitting === 'true') { event.preventDefault(); return; }
    form.dataset.submitting = 'true';
  });
})();
