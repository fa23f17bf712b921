import { readAppSettings, updateAppSettings } from '../../../../db/repositories/app-settings.ts';
import type { AuthedEnv } from '../../../../http/app-env.ts';
import { ApiError } from '../../../../http/errors.ts';
import { createRouter } from '../../../../http/openapi.ts';
import {
  findBadAllowEntry,
  forgetOutboundAllowList,
  normalizeAllowEntries,
} from '../../../../net/allow-list-setting.ts';
import { getSettingsRoute, putSettingsRoute } from './settings.routes.ts';

/** At most this much of a bad entry is quoted back. */
const quoteLimit = 80;

export const adminSettingsRouter = createRouter<AuthedEnv>()
  .openapi(getSettingsRoute, async (c) =>
    c.json(await readAppSettings(c.var.deps.database.db), 200),
  )
  .openapi(putSettingsRoute, async (c) => {
    const { deps, user } = c.var;
    const body = c.req.valid('json');
    const hosts = body.outbound_allow_hosts && normalizeAllowEntries(body.outbound_allow_hosts);
    const bad = hosts && findBadAllowEntry(hosts);
    if (bad !== undefined) {
      const quoted = bad.length > quoteLimit ? `${bad.slice(0, quoteLimit)}…` : bad;
      throw new ApiError(
        400,
        'outbound:bad_allow_entry',
        `The entry "${quoted}" is not a host name, an IP address or a range like 10.0.0.0/8. Fix it, then save.`,
      );
    }
    const settings = await updateAppSettings(deps.database.db, user.id, {
      ...body,
      ...(hosts && { outbound_allow_hosts: hosts }),
    });
    if (hosts) forgetOutboundAllowList(deps);
    deps.log.info(
      {
        adminId: user.id,
        signupMode: settings.signup_mode,
        outboundAllowHosts: settings.outbound_allow_hosts.length,
      },
      'settings',
    );
    return c.json(settings, 200);
  });
