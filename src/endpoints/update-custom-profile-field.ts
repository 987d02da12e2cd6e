// PATCH /realm/profile_fields/{field_id}: change a field's label, hint, data or summary flag (administrators).
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { updateProfileField } from '../actions/profile-fields.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { checkFieldDataShape } from '../lib/profile-fields.js';

export default endpoint({
  method: 'PATCH',
  url: '/realm/profile_fields/:field_id',
  params: {
    field_id: p.pathInt(),
    name: p.string().optional(),
    hint: p.string().optional(),
    field_data: p.json(z.unknown()).then(checkFieldDataShape).optional(),
    display_in_profile_summary: p.bool().optional(),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) =>
      updateProfileField(ctx, params.field_id, {
        name: params.name,
        hint: params.hint,
        fieldData: params.field_data,
        displayInProfileSummary: params.display_in_profile_summary,
      }),
    );
    return {};
  },
});
