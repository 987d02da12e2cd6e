// Parameter forms shared by the bot endpoints.
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { p } from '../http/params.js';
import { isUrl } from '../lib/profile-fields.js';

/** A web address sent JSON-encoded, as the reference's bot parameters take it. */
export const jsonUrl = () =>
  p.json(z.string()).then((value, name) => {
    if (!isUrl(value)) throw new ApiError(`${name} is not a URL`);
    return value;
  });
