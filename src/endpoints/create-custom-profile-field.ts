// POST /realm/profile_fields: add a custom profile field (administrators).
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { addProfileField } from '../actions/profile-fields.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { checkFieldDataShape } from '../lib/profile-fields.js';

export default endpoint({
  method: 'POST',
  url: '/realm/profile_fields',
  params: {
    name: p.string().default(''),
    hint: p.string().default(''),
    field_type: p.int(),
    field_data: p.json(z.unknown()).then(checkFieldDataShape).default({}),
    display_in_profile_summary: p.bool().default(false),
  },
  async handler({ params, user, realm, services }) {
    const id = await runAction(services, user, realm, (ctx) =>
      addProfileField(ctx, {
        name: params.name,
        hint: params.hint,
        fieldType: params.field_type,
        fieldData: params.field_data,
        displayInProfileSummary: params.display_in_profile_summary,
      }),
    );
    return { id };
  },
});
