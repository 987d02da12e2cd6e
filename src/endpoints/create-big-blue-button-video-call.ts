// GET /calls/bigbluebutton/create: a BigBlueButton call URL. Confab is not connected to a
// BigBlueButton server, so it answers as a reference server without one configured does.
import { ApiError } from '../errors.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'GET',
  url: '/calls/bigbluebutton/create',
  params: {
    meeting_name: p.string(),
  },
  handler() {
    throw new ApiError('BigBlueButton is not configured.');
  },
});
