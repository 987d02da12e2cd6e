// Fixed tables the POST /register state carries for clients' settings screens: the same for every
// organization on this server. Values follow the reference at feature level 229.

/** custom_profile_field_types: every field type a custom profile field may have. */
export const CUSTOM_PROFILE_FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: 'Short text' },
  LONG_TEXT: { id: 2, name: 'Long text' },
  SELECT: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date picker' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Person picker' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
} as const;

/** realm_default_external_accounts: a rule of profile fields, kept with them in lib/. */
export { DEFAULT_EXTERNAL_ACCOUNTS } from '../../lib/profile-fields.js';

/** realm_available_video_chat_providers: the values PATCH /realm accepts for video_chat_provider. */
export const VIDEO_CHAT_PROVIDER_TABLE = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
  zoom: { name: 'Zoom', id: 3 },
  big_blue_button: { name: 'BigBlueButton', id: 4 },
} as const;

/** The public Jitsi server calls go to when the organization names none. */
export const DEFAULT_JITSI_SERVER_URL = 'https://meet.jit.si';

/** server_supported_permission_settings: what each group-valued permission setting may be set to. */
export const SUPPORTED_PERMISSION_SETTINGS = {
  realm: {
    create_multiuse_invite_group: {
      require_system_group: true,
      allow_internet_group: false,
      allow_nobody_group: true,
      allow_everyone_group: false,
      default_group_name: 'role:administrators',
      default_for_system_groups: null,
      allowed_system_groups: [],
    },
    can_access_all_users_group: {
      require_system_group: true,
      allow_internet_group: false,
      allow_nobody_group: false,
      allow_everyone_group: true,
      default_group_name: 'role:everyone',
      default_for_system_groups: null,
      allowed_system_groups: ['role:everyone', 'role:members'],
    },
  },
  stream: {
    can_remove_subscribers_group: {
      require_system_group: true,
      allow_internet_group: false,
      allow_nobody_group: false,
      allow_everyone_group: true,
      default_group_name: 'role:administrators',
      default_for_system_groups: 'role:nobody',
      allowed_system_groups: [],
    },
  },
  group: {
    can_mention_group: {
      require_system_group: false,
      allow_internet_group: false,
      allow_nobody_group: true,
      allow_everyone_group: true,
      default_group_name: 'role:everyone',
      default_for_system_groups: 'role:nobody',
      allowed_system_groups: [],
    },
  },
};

/** stop_words: words search ignores (PostgreSQL's English list, which the reference's search uses too). */
export const STOP_WORDS: readonly string[] = (
  'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself ' +
  'it its itself they them their theirs themselves what which who whom this that these those am is are was were be ' +
  'been being have has had having do does did doing a an the and but if or because as until while of at by for with ' +
  'about against between into through during before after above below to from up down in out on off over under again ' +
  'further then once here there when where why how all any both each few more most other some such no nor not only ' +
  'own same so than too very s t can will just don should now'
).split(' ');
