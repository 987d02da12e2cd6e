// POST /realm/playgrounds: add a code playground (administrators). The language arrives as
// highlighter_language or, from clients of the reference, pygments_language.
import { runAction } from '../actions/context.js';
import { addPlayground } from '../actions/playgrounds.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

const required = () => p.string({ notBlank: true }).then((value) => value.trim());

export default endpoint({
  method: 'POST',
  url: '/realm/playgrounds',
  params: {
    name: required(),
    highlighter_language: required().alias('pygments_language'),
    url_template: required(),
  },
  async handler({ params, user, realm, services }) {
    const id = await runAction(services, user, realm, (ctx) =>
      addPlayground(ctx, { name: params.name, highlighterLanguage: params.highlighter_language, urlTemplate: params.url_template }),
    );
    return { id };
  },
});
