// Linkifiers: compiling administrators' patterns and finding matches in text and topics. The
// per-realm cache of compiled lists, which reads the store, is queries/linkifier-cache.ts.
export { type CompiledLinkifier, compileLinkifiers, findLinkifierMatches } from './match.js';
export { topicLinks } from './topic-links.js';
