// zulip-js ships no type declarations; the end-to-end test needs only this much.
declare module 'zulip-js' {
  type Params = Record<string, unknown>;
  type Answer = Promise<Record<string, any>>;
  interface Client {
    config: { apiKey: string; apiURL: string };
    callEndpoint(endpoint: string, method?: string, params?: Params): Answer;
    server: { settings(params?: Params): Answer };
    users: { retrieve(params?: Params): Answer; me: { getProfile(): Answer } };
    streams: {
      retrieve(params?: Params): Answer;
      getStreamId(name: string | Params): Answer;
      subscriptions: { retrieve(params?: Params): Answer };
      topics: { retrieve(params: { stream_id: number }): Answer };
    };
    messages: {
      send(params: Params): Answer;
      retrieve(params: Params): Answer;
      flags: { add(params: Params): Answer; remove(params: Params): Answer };
    };
    queues: { register(params?: Params): Answer; deregister(params: Params): Answer };
    events: { retrieve(params: Params): Answer };
    typing: { send(params: Params): Answer };
  }
  export default function zulip(config: { realm: string; username: string; apiKey?: string; password?: string }): Promise<Client>;
}
