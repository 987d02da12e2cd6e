// THE route table: every method and path of the API (under /api/v1), sorted by path.
import type { Endpoint } from './http/endpoint.js';
import getServerSettings from './endpoints/get-server-settings.js';
import devFetchApiKey from './endpoints/dev-fetch-api-key.js';
import devListUsers from './endpoints/dev-list-users.js';
import fetchApiKey from './endpoints/fetch-api-key.js';
import getMessages from './endpoints/get-messages.js';
import updateMessageFlags from './endpoints/update-message-flags.js';
import sendMessage from './endpoints/send-message.js';
import getMessage from './endpoints/get-message.js';
import deleteMessage from './endpoints/delete-message.js';
import getOwnUser from './endpoints/get-own-user.js';
import getStreams from './endpoints/get-streams.js';
import getStreamById from './endpoints/get-stream-by-id.js';
import getSubscribers from './endpoints/get-subscribers.js';
import getUsers from './endpoints/get-users.js';
import createUser from './endpoints/create-user.js';
import deactivateOwnUser from './endpoints/deactivate-own-user.js';
import getSubscriptions from './endpoints/get-subscriptions.js';
import subscribe from './endpoints/subscribe.js';
import unsubscribe from './endpoints/unsubscribe.js';
import getUserByEmail from './endpoints/get-user-by-email.js';
import getUser from './endpoints/get-user.js';
import deactivateUser from './endpoints/deactivate-user.js';
import reactivateUser from './endpoints/reactivate-user.js';

export const routes: Endpoint[] = [
  devFetchApiKey, //         POST   /dev_fetch_api_key
  devListUsers, //           GET    /dev_list_users
  fetchApiKey, //            POST   /fetch_api_key
  getMessages, //            GET    /messages
  sendMessage, //            POST   /messages
  updateMessageFlags, //     POST   /messages/flags
  getMessage, //             GET    /messages/{message_id}
  deleteMessage, //          DELETE /messages/{message_id}
  getServerSettings, //      GET    /server_settings
  getStreams, //             GET    /streams
  getStreamById, //          GET    /streams/{stream_id}
  getSubscribers, //         GET    /streams/{stream_id}/members
  getUsers, //               GET    /users
  createUser, //             POST   /users
  getOwnUser, //             GET    /users/me
  deactivateOwnUser, //      DELETE /users/me
  getSubscriptions, //       GET    /users/me/subscriptions
  subscribe, //              POST   /users/me/subscriptions
  unsubscribe, //            DELETE /users/me/subscriptions
  getUserByEmail, //         GET    /users/{email}
  getUser, //                GET    /users/{user_id}
  deactivateUser, //         DELETE /users/{user_id}
  reactivateUser, //         POST   /users/{user_id}/reactivate
];
