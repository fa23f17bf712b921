import { INVITATION_VALID_DAYS } from '@chorus/shared/api/access-requests';
import type { OutgoingEmail } from '../../../email/transport.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The link an approved request receives: `/auth?invite={token}&email={address}`. */
export const invitationLink = (appUrl: string, token: string, email: string) =>
  `${appUrl}/auth?invite=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}`;

/** The invitation mail. Plain HTML and text; may move onto a React Email template later. */
export const invitationEmail = (opts: {
  to: string;
  inviteLink: string;
  expiresAt: Date;
  supportEmail: string;
}): OutgoingEmail => {
  const year = new Date().getFullYear();
  const until = opts.expiresAt.toUTCString();
  return {
    to: [opts.to],
    subject: 'Your invitation to Chorus',
    template: 'access_invitation',
    text: [
      'Hello,',
      '',
      'Your request for access to Chorus was approved.',
      `Open this link to create your account with this e-mail address (valid for ${INVITATION_VALID_DAYS} days, until ${until}; it works once):`,
      '',
      opts.inviteLink,
      '',
      'If you did not ask for access, you can ignore this e-mail.',
      '',
      `© ${year} Chorus · ${opts.supportEmail}`,
    ].join('\n'),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111">
<p>Hello,</p>
<p>Your request for access to Chorus was approved.</p>
<p><a href="${escapeHtml(opts.inviteLink)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">Create your account</a></p>
<p>Or paste this link into your browser (valid for ${INVITATION_VALID_DAYS} days, until ${escapeHtml(until)}; it works once):<br><span>${escapeHtml(opts.inviteLink)}</span></p>
<p>If you did not ask for access, you can ignore this e-mail.</p>
<hr><p style="color:#666;font-size:12px">© ${year} Chorus · ${escapeHtml(opts.supportEmail)}</p>
</body></html>`,
  };
};
