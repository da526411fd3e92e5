import { Type } from '@sinclair/typebox';
import { ApiError } from '../http/errors.ts';
import { endpoint, type RouteDef } from '../http/route.ts';
import { isFieldIncluded } from '../http/response-shape.ts';
import type { Site } from '../post/index.ts';
import type { UserRow } from '../user/index.ts';
import { contextArg, type Context } from './context-arg.ts';
import { userBody, userLinks } from './user.format.ts';

export interface UsersMeDeps {
  readonly site: Site;
  readonly findUser: (id: number) => Promise<UserRow | undefined>;
}

const notLoggedIn = () => new ApiError('rest_not_logged_in', 'You are not currently logged in.');

/** GET `/wp/v2/users/me`: the authenticated user, as WP_REST_Users_Controller::get_current_item answers. */
export function usersMeRoutes(deps: UsersMeDeps): RouteDef[] {
  const context = contextArg(['view', 'embed', 'edit']);
  return [
    {
      pattern: '/users/me',
      endpoints: [
        endpoint<{ context: Context }>({
          methods: ['GET'],
          args: { schema: Type.Object({ context: context.schema }), validators: { context: context.validator } },
          // Everyone may ask; the handler answers 401 to anonymous callers, as core does (permission_callback is __return_true).
          handler: async (ctx, params) => {
            if (ctx.caller === null) throw notLoggedIn();
            // A user removed after authenticating is no longer anyone.
            const user = await deps.findUser(ctx.caller.id);
            if (user === undefined) throw notLoggedIn();
            const links = isFieldIncluded('_links', ctx.query._fields) ? userLinks(user, deps.site, user) : undefined;
            return { body: userBody(user, params.context, deps.site), ...(links ? { links } : {}) };
          },
        }),
      ],
    },
  ];
}
