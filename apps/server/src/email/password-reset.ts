import type { OutgoingEmail } from './transport.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The reset mail. Moves onto a React Email template in the e-mail issue. */
export const passwordResetEmail = (opts: {
  to: string;
  userName: string;
  resetLink: string;
  supportEmail: string;
}): OutgoingEmail => {
  const year = new Date().getFullYear();
  const name = opts.userName.trim() || 'there';
  return {
    to: [opts.to],
    subject: 'Reset your Chorus password',
    template: 'password_reset',
    text: [
      `Hi ${name},`,
      '',
      'We received a request to reset the password of your Chorus account.',
      'Open this link to choose a new password (it is valid for one hour):',
      '',
      opts.resetLink,
      '',
      'If you did not ask for this, you can ignore this e-mail; your password stays the same.',
      '',
      `© ${year} Chorus · ${opts.supportEmail}`,
    ].join('\n'),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111">
<p>Hi ${escapeHtml(name)},</p>
<p>We received a request to reset the password of your Chorus account.</p>
<p><a href="${escapeHtml(opts.resetLink)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">Choose a new password</a></p>
<p>Or paste this link into your browser (valid for one hour):<br><span>${escapeHtml(opts.resetLink)}</span></p>
<p>If you did not ask for this, you can ignore this e-mail; your password stays the same.</p>
<hr><p style="color:#666;font-size:12px">© ${year} Chorus · ${escapeHtml(opts.supportEmail)}</p>
</body></html>`,
  };
};
