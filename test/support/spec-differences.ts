// Where SPEC.md (feature level 229) and the reference OpenAPI document (server 10.2) disagree,
// SPEC.md wins. Each entry rewrites the reference document before any schema is compiled, and
// says why. An entry that no longer finds anything to change fails loudly, so the list cannot rot.

/** The parsed OpenAPI document: plain JSON values. */
export type Doc = Record<string, any>;
export type SchemaNode = Record<string, any>;

export interface SpecDifference {
  why: string;
  /** Rewrites the document in place; returns how many places it changed (0 means stale). */
  apply(doc: Doc): number;
}

/** Calls visit on every schema-like object of the document (anything with `properties`). */
function forEachObjectSchema(doc: Doc, visit: (schema: SchemaNode) => boolean): number {
  let changed = 0;
  const seen = new Set<object>();
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) return node.forEach(walk);
    const schema = node as SchemaNode;
    if (schema.properties && typeof schema.properties === 'object' && visit(schema)) changed++;
    for (const value of Object.values(schema)) walk(value);
  };
  walk(doc);
  return changed;
}

/** Every property schema called `name` (of the given type when told), wherever it is declared. */
function forEachProperty(doc: Doc, name: string, type: string | undefined, change: (prop: SchemaNode) => void): number {
  return forEachObjectSchema(doc, (schema) => {
    const prop = schema.properties[name];
    if (!prop || typeof prop !== 'object' || (type !== undefined && prop.type !== type)) return false;
    change(prop);
    return true;
  });
}

function responseSchema(doc: Doc, path: string, method: string, status = '200'): SchemaNode {
  const schema = doc.paths?.[path]?.[method]?.responses?.[status]?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`spec differences: no ${method} ${path} ${status} response in the reference`);
  return schema;
}

/** The `allOf` part of a response that lists its own fields. */
function ownPart(schema: SchemaNode): SchemaNode {
  const part = (schema.allOf as SchemaNode[] | undefined)?.find((p) => p.properties && !p.$ref);
  if (!part) throw new Error('spec differences: response has no allOf part with properties');
  return part;
}

function dropRequired(schema: SchemaNode, names: readonly string[]): boolean {
  if (!Array.isArray(schema.required)) return false;
  const before = schema.required.length;
  schema.required = schema.required.filter((name: string) => !names.includes(name));
  return schema.required.length !== before;
}

// Fresh objects each time: differences must never share a schema node another one may change.
const integer = () => ({ type: 'integer' });
const string = () => ({ type: 'string' });

/** Realm permission settings of the era, integer policies later replaced by group settings. */
const ERA_POLICIES = [
  'add_custom_emoji_policy',
  'bot_creation_policy',
  'create_private_stream_policy',
  'create_public_stream_policy',
  'create_web_public_stream_policy',
  'delete_own_message_policy',
  'edit_topic_policy',
  'invite_to_realm_policy',
  'invite_to_stream_policy',
  'move_messages_between_streams_policy',
  'private_message_policy',
  'user_group_edit_policy',
  'wildcard_mention_policy',
] as const;

/** Stream fields the reference made mandatory after feature level 229. */
const LATER_STREAM_FIELDS = ['is_archived', 'is_recently_active', 'can_subscribe_group'] as const;

export const SPEC_DIFFERENCES: SpecDifference[] = [
  {
    why: 'Version fields: SPEC.md names them service_feature_level/service_version/service_merge_base; the zulip_* twins stay for existing clients.',
    apply: (doc) =>
      forEachObjectSchema(doc, (schema) => {
        if (!schema.properties.zulip_feature_level) return false;
        Object.assign(schema.properties, {
          service_feature_level: integer(),
          service_version: string(),
          service_merge_base: string(),
        });
        return true;
      }),
  },
  {
    why: 'emojiset values are SPEC.md\'s vendora, vendora-blob, vendorb and text; google, google-blob and twitter are input aliases only.',
    apply: (doc) =>
      forEachProperty(doc, 'emojiset', 'string', (prop) => {
        prop.enum = ['vendora', 'vendora-blob', 'vendorb', 'text'];
      }),
  },
  {
    why: 'Playgrounds name the language highlighter_language (SPEC.md); pygments_language is still emitted beside it, so both keys are present.',
    apply: (doc) => {
      const playground = doc.components.schemas.RealmPlayground as SchemaNode;
      playground.properties.highlighter_language = { type: 'string' };
      playground.required = ['id', 'name', 'pygments_language', 'highlighter_language', 'url_template'];
      return 1;
    },
  },
  {
    why: 'Realm permissions are the integer *_policy settings of feature level 229 (SPEC.md), which /register reports as realm_<name>.',
    apply: (doc) => {
      const register = ownPart(responseSchema(doc, '/register', 'post'));
      for (const name of ERA_POLICIES) register.properties[`realm_${name}`] = integer();
      return 1;
    },
  },
  {
    why: 'The same integer policies travel in realm update_dict events (feature level 229), not only the later group settings.',
    apply: (doc) =>
      forEachObjectSchema(doc, (schema) => {
        const { op, data } = schema.properties;
        if (!op?.enum?.includes('update_dict') || !data?.properties?.allow_message_editing) return false;
        for (const name of ERA_POLICIES) data.properties[name] = integer();
        return true;
      }),
  },
  {
    why: 'visibility_policy is 0 none, 1 muted, 2 unmuted, with 3 followed accepted as clients send it: nothing else may come out.',
    apply: (doc) =>
      forEachProperty(doc, 'visibility_policy', 'integer', (prop) => {
        prop.enum = [0, 1, 2, 3];
      }),
  },
  {
    why: 'dense_mode is a personal setting in SPEC.md\'s table; the reference dropped it after feature level 229.',
    apply: (doc) =>
      forEachObjectSchema(doc, (schema) => {
        if (!schema.properties.fluid_layout_width || schema.properties.dense_mode) return false;
        schema.properties.dense_mode = { type: 'boolean' };
        return true;
      }),
  },
  {
    why: 'Stream objects of feature level 229 have no is_archived, is_recently_active or can_subscribe_group (added later).',
    apply: (doc) => forEachObjectSchema(doc, (schema) => dropRequired(schema, LATER_STREAM_FIELDS)),
  },
  {
    why: 'User dictionaries carry is_billing_admin (SPEC.md\'s User table); the reference removed it at feature level 363.',
    apply: (doc) =>
      forEachObjectSchema(doc, (schema) => {
        const { is_guest, is_bot, role } = schema.properties;
        if (!is_guest || !is_bot || !role || schema.properties.is_billing_admin) return false;
        schema.properties.is_billing_admin = { type: 'boolean' };
        return true;
      }),
  },
  {
    why: 'GET /users/me is SPEC.md\'s User dictionary, so it has bot_type and bot_owner_id too (null for people).',
    apply: (doc) => {
      const own = ownPart(responseSchema(doc, '/users/me', 'get'));
      Object.assign(own.properties, {
        bot_type: { type: 'integer', nullable: true },
        bot_owner_id: { type: 'integer', nullable: true },
      });
      return 1;
    },
  },
  {
    why: 'Reactions in messages still carry the deprecated user object SPEC.md lists; the reference removed it at feature level 328. (Reaction events keep the reference\'s own user object, {user_id, email, full_name}.)',
    apply: (doc) =>
      ['EmojiReaction'].filter((name) => {
        const part = (doc.components.schemas[name].allOf as SchemaNode[]).find((p) => p.properties?.user_id);
        if (!part) return false;
        part.properties.user = {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'email', 'full_name', 'is_mirror_dummy'],
          properties: { id: integer(), email: string(), full_name: string(), is_mirror_dummy: { type: 'boolean' } },
        };
        return true;
      }).length,
  },
  {
    why: 'The message event to the queue that sent the message carries local_message_id (zulip-contract.md c, SPEC.md local echo); the reference document omits it.',
    apply: (doc) =>
      forEachObjectSchema(doc, (schema) => {
        const { message, flags } = schema.properties;
        if (message?.$ref !== '#/components/schemas/MessagesEvent' || !flags) return false;
        schema.properties.local_message_id = string();
        return true;
      }),
  },
  {
    why: 'Custom profile fields of feature level 229 have no required or editable_by_user flags (added later).',
    apply: (doc) => Number(dropRequired(doc.components.schemas.CustomProfileField, ['required', 'editable_by_user'])),
  },
  {
    why: 'retry-after is fractional seconds: the reference server sends a float (its own example is 28.706807374954224).',
    apply: (doc) =>
      forEachProperty(doc, 'retry-after', 'integer', (prop) => {
        prop.type = 'number';
      }),
  },
  {
    why: 'BAD_NARROW errors carry desc (zulip-contract.md d); the reference document does not list the field.',
    apply: (doc) => addSharedError(doc, 'BadNarrowError', { desc: string() }),
  },
  {
    why: 'REQUEST_VARIABLE_INVALID errors carry var_name and bad_value (zulip-contract.md d); the reference document does not list them.',
    apply: (doc) => addSharedError(doc, 'RequestVariableInvalidError', { var_name: string(), bad_value: {} }),
  },
  {
    why: 'CANNOT_DEACTIVATE_LAST_USER (is_last_owner, entity) also answers admin deactivation, not only DELETE /users/me.',
    apply: (doc) =>
      addSharedError(doc, 'CannotDeactivateLastUserError', { is_last_owner: { type: 'boolean' }, entity: string() }),
  },
  {
    why: 'A stream update event for message_retention_days set back to the realm default carries value null, as the reference server sends; its document omits null.',
    apply: (doc) =>
      forEachObjectSchema(doc, (schema) => {
        const { property, value, rendered_description } = schema.properties;
        if (!property || !value?.oneOf || !rendered_description) return false;
        value.nullable = true;
        return true;
      }),
  },
  {
    why: 'Edit-history elements may carry prev_rendered_content_version (SPEC.md "Edit-history element"); the reference dropped it from clients at feature level 284.',
    apply: (doc) =>
      forEachObjectSchema(doc, (schema) => {
        const { prev_rendered_content, prev_stream, prev_rendered_content_version } = schema.properties;
        if (!prev_rendered_content || !prev_stream || prev_rendered_content_version) return false;
        schema.properties.prev_rendered_content_version = integer();
        return true;
      }),
  },
  {
    why: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED carries first_message_id_allowed_to_move, total_messages_in_topic and total_messages_allowed_to_move (SPEC.md Errors); the reference document shows them only in an example.',
    apply: (doc) =>
      addSharedError(doc, 'MoveMessagesTimeLimitError', {
        first_message_id_allowed_to_move: { type: 'integer', nullable: true },
        total_messages_in_topic: integer(),
        total_messages_allowed_to_move: integer(),
      }),
  },
  {
    why: 'A subscription update event for a notification override set back to "inherit" carries value null (SPEC.md: null means the user-level default); the reference document omits null.',
    apply: (doc) =>
      forEachObjectSchema(doc, (schema) => {
        const { type, op, property, value, stream_id, rendered_description } = schema.properties;
        const isSubscription = JSON.stringify(type ?? {}).includes('"subscription"');
        if (!isSubscription || !op?.enum?.includes('update') || !property || !stream_id || !value?.oneOf || rendered_description) return false;
        value.nullable = true;
        return true;
      }),
  },
  {
    why: 'A stream delete event lists whole stream objects in streams at feature level 229; the reference cut them to {stream_id} at feature level 343.',
    apply: (doc) =>
      forEachObjectSchema(doc, (schema) => {
        const { op, streams, stream_ids } = schema.properties;
        if (!op?.enum?.includes('delete') || !stream_ids || !streams?.items?.properties?.stream_id) return false;
        streams.items = { $ref: '#/components/schemas/BasicChannel' };
        return true;
      }),
  },
];

/** Error shapes in components whose names end in "Error" may answer any operation. */
function addSharedError(doc: Doc, name: string, fields: Record<string, SchemaNode>): number {
  doc.components.schemas[name] = {
    allOf: [
      { $ref: '#/components/schemas/CodedErrorBase' },
      {
        additionalProperties: false,
        required: Object.keys(fields),
        properties: { result: {}, msg: {}, code: {}, ...fields },
      },
    ],
  };
  return 1;
}

/** Applies every difference; throws when one of them no longer changes anything. */
export function applySpecDifferences(doc: Doc): Doc {
  for (const difference of SPEC_DIFFERENCES) {
    if (difference.apply(doc) === 0) throw new Error(`spec difference no longer applies: ${difference.why}`);
  }
  return doc;
}
