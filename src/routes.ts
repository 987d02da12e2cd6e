// THE route table: every method and path of the API (under /api/v1), sorted by path.
import type { Endpoint } from './http/endpoint.js';
import getServerSettings from './endpoints/get-server-settings.js';
import sendMessage from './endpoints/send-message.js';
import getMessage from './endpoints/get-message.js';
import deleteMessage from './endpoints/delete-message.js';
import getOwnUser from './endpoints/get-own-user.js';

export const routes: Endpoint[] = [
  sendMessage, //            POST   /messages
  getMessage, //             GET    /messages/{message_id}
  deleteMessage, //          DELETE /messages/{message_id}
  getServerSettings, //      GET    /server_settings
  getOwnUser, //             GET    /users/me
];
