// Linkifiers: compiling administrators' patterns, finding matches in text and topics, and the
// per-realm cache the renderer and message dictionaries read.
export { invalidateRealmLinkifiers, realmLinkifiers } from './cache.js';
export { type CompiledLinkifier, compileLinkifiers, findLinkifierMatches } from './match.js';
export { topicLinks } from './topic-links.js';
