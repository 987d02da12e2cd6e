// What the server tells clients about itself. The API era is feature level 229;
// the zulip_* twins carry the same values so that existing clients recognise the server.
export const FEATURE_LEVEL = 229;
export const CONFAB_VERSION = '0.1.0';
export const SERVICE_VERSION = `8.0-confab-${CONFAB_VERSION}`;
export const SERVICE_MERGE_BASE = '8.0';

export function versionFields() {
  return {
    service_feature_level: FEATURE_LEVEL,
    service_version: SERVICE_VERSION,
    service_merge_base: SERVICE_MERGE_BASE,
    zulip_feature_level: FEATURE_LEVEL,
    zulip_version: SERVICE_VERSION,
    zulip_merge_base: SERVICE_MERGE_BASE,
  };
}
