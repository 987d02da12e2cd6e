// THE route table: every method and path of the API (under /api/v1), sorted by path.
import type { Endpoint } from './http/endpoint.js';
import getServerSettings from './endpoints/get-server-settings.js';
import getOwnUser from './endpoints/get-own-user.js';

export const routes: Endpoint[] = [
  getServerSettings, //      GET    /server_settings
  getOwnUser, //             GET    /users/me
];
