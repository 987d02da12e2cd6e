// Linkifiers: compiling administrators' patterns, finding matches in text and topics, and the
// per-realm cache the renderer and message dictionaries read. The renderer uses only
// CompiledLinkifier, compileLinkifiers, findLinkifierMatches and realmLinkifiers.
export { invalidateRealmLinkifiers, realmLinkifiers } from './cache.js';
export {
  type CompiledLinkifier,
  compileLinkifiers,
  findLinkifierMatches,
  type LinkifierMatch,
  type LinkifierRow,
} from './match.js';
export { compilePattern } from './pattern.js';
export { topicLinks, type TopicLink } from './topic-links.js';
export { templateVariables } from './url-template.js';
