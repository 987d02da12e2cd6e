// PATCH /settings/display: deprecated alias of PATCH /settings.
import { settingsEndpoint } from './update-settings.js';

export default settingsEndpoint('/settings/display');
