import { scriptTag } from './scripts';

/** Where the dashboard serves the passkey script: a file of its own origin, so that a page's policy allows it with `script-src 'self'`. */
export const PASSKEY_SCRIPT_PATH = '/dashboard/assets/passkeys.js';

/**
 * The passkey pages' script (product-decisions §16), the browser's half of the WebAuthn
 * ceremonies. A form marked `data-passkey="register"` (the Security page) or `"sign-in"` (the
 * sign-in page) stays hidden without WebAuthn; on submit it asks the form's
 * `data-passkey-options` URL for the ceremony's options (same origin, with the form's token and
 * its page's mode),
 * has the browser create or get the credential (the authenticator asks for the person's PIN or
 * fingerprint), puts the credential's JSON into the form's `credential` field and sends the
 * form, whose answer is a redirect like every dashboard form's. What went wrong is said in the
 * form's `[data-passkey-status]` (an alert). Browsers without WebAuthn's JSON methods
 * (`parseCreationOptionsFromJSON`, `toJSON`) get the same conversion by hand.
 */
export const PASSKEY_SCRIPT = `(() => {
  const forms = document.querySelectorAll('form[data-passkey]');
  if (forms.length === 0 || !window.PublicKeyCredential || !navigator.credentials) return;
  const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4)), (c) => c.charCodeAt(0));
  const text = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  const creation = (json) => PublicKeyCredential.parseCreationOptionsFromJSON
    ? PublicKeyCredential.parseCreationOptionsFromJSON(json)
    : { ...json, challenge: bytes(json.challenge), user: { ...json.user, id: bytes(json.user.id) }, excludeCredentials: (json.excludeCredentials || []).map((c) => ({ ...c, id: bytes(c.id) })) };
  const request = (json) => PublicKeyCredential.parseRequestOptionsFromJSON
    ? PublicKeyCredential.parseRequestOptionsFromJSON(json)
    : { ...json, challenge: bytes(json.challenge), allowCredentials: (json.allowCredentials || []).map((c) => ({ ...c, id: bytes(c.id) })) };
  const asJson = (credential) => {
    if (typeof credential.toJSON === 'function') return credential.toJSON();
    const r = credential.response;
    const response = r.attestationObject
      ? { clientDataJSON: text(r.clientDataJSON), attestationObject: text(r.attestationObject), transports: r.getTransports ? r.getTransports() : [] }
      : { clientDataJSON: text(r.clientDataJSON), authenticatorData: text(r.authenticatorData), signature: text(r.signature), userHandle: r.userHandle ? text(r.userHandle) : undefined };
    return { id: credential.id, rawId: text(credential.rawId), type: credential.type, response, clientExtensionResults: credential.getClientExtensionResults(), authenticatorAttachment: credential.authenticatorAttachment || undefined };
  };
  for (const form of forms) {
    form.hidden = false;
    const status = form.querySelector('[data-passkey-status]');
    const say = (message) => { if (status) status.textContent = message; };
    form.addEventListener('submit', async (event) => {
      const field = form.elements.namedItem('credential');
      if (field.value) return;
      event.preventDefault();
      const button = form.querySelector('button[type="submit"]');
      button.disabled = true;
      say('');
      try {
        const answer = await fetch(form.dataset.passkeyOptions, {
          method: 'POST',
          headers: { accept: 'application/json' },
          body: new URLSearchParams([...new FormData(form)].filter(([name]) => name === 'csrf_token' || name === 'page_mode')),
        });
        const options = await answer.json().catch(() => ({ detail: 'The dashboard did not answer (' + answer.status + ')' }));
        if (!answer.ok) throw new Error(options.detail);
        const credential = form.dataset.passkey === 'register'
          ? await navigator.credentials.create({ publicKey: creation(options) })
          : await navigator.credentials.get({ publicKey: request(options) });
        field.value = JSON.stringify(asJson(credential));
        form.submit();
      } catch (error) {
        say(error && error.name === 'NotAllowedError' ? 'The passkey was not used: the request was cancelled or timed out.' : (error && error.message) || 'The passkey could not be used.');
        button.disabled = false;
      }
    });
  }
})();
`;

/** The script's tag, for a page with a passkey form. */
export const passkeyScriptTag = (dashboardUrl: string) => scriptTag(dashboardUrl, PASSKEY_SCRIPT_PATH);
