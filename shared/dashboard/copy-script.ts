import { escapeHtml } from '../http/page';
import { scriptTag } from './scripts';

/** Where the dashboard serves the copy buttons' script: a file of its own origin (shared/dashboard/scripts.ts). */
export const COPY_SCRIPT_PATH = '/dashboard/assets/copy.js';

/**
 * A Copy button for the read-only field `fieldId` (a secret shown once, product-decisions §17),
 * and the status that says what it did (a live region). The button is hidden until the copy
 * script finds the clipboard; without the script the field stays there to select and copy.
 */
export const copyButton = (fieldId: string) => {
  const id = escapeHtml(fieldId);
  return {
    button: `<button type="button" data-copy="${id}" data-copy-status="${id}-copied" hidden>Copy</button>`,
    status: `<p class="hint copy-status" id="${id}-copied" role="status"></p>`,
  };
};

/**
 * The copy buttons' script: each `button[data-copy]` is shown, when the browser has
 * `navigator.clipboard`, and on a click writes its field's value to the clipboard and says so in
 * its status; when the browser refuses, the field is selected for the keyboard's copy instead.
 */
export const COPY_SCRIPT = `(() => {
  const buttons = document.querySelectorAll('button[data-copy]');
  if (buttons.length === 0 || !navigator.clipboard || !navigator.clipboard.writeText) return;
  for (const button of buttons) {
    const field = document.getElementById(button.dataset.copy);
    const status = document.getElementById(button.dataset.copyStatus);
    if (!field || !status) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      status.textContent = '';
      try {
        await navigator.clipboard.writeText(field.value);
        status.textContent = 'Copied to the clipboard.';
      } catch {
        field.focus();
        field.select();
        status.textContent = 'Not copied: the browser did not allow it. The field is selected: copy it with the keyboard.';
      }
    });
  }
})();
`;

/**
 * The script's tag for a page whose notice may show a secret with a Copy button (`copyableSecret`
 * in shared/dashboard/html.ts): there when it does, nothing otherwise. Such a page is answered
 * with SCRIPT_FILE_PAGE_HEADERS (shared/dashboard/http.ts).
 */
export const copyScriptFor = (notice: { secret?: string } | undefined, dashboardUrl: string) => (notice?.secret ? `\n${scriptTag(dashboardUrl, COPY_SCRIPT_PATH)}` : '');
