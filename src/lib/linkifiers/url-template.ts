// RFC 6570 URL templates: a strict syntax check that also lists the template's variables, and
// expansion prepared once per template (results are the url-template package's).
import { parseTemplate } from 'url-template';

/** Operators RFC 6570 defines (levels 2 and 3); "=,!@|" are reserved for the future and refused. */
const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
const PREFIX = /^[1-9][0-9]{0,3}$/;

/** Characters a template may not hold outside an expression (besides "%" not starting an escape). */
function isForbiddenLiteral(code: number): boolean {
  if (code <= 0x20 || code === 0x7f || (code >= 0x80 && code <= 0x9f)) return true;
  // " ' < > \ ^ ` { | }
  return [0x22, 0x27, 0x3c, 0x3e, 0x5c, 0x5e, 0x60, 0x7b, 0x7c, 0x7d].includes(code);
}

function parseVarspec(spec: string): string | null {
  let name = spec;
  if (name.endsWith('*')) {
    name = name.slice(0, -1);
  } else {
    const colon = name.indexOf(':');
    if (colon >= 0) {
      if (!PREFIX.test(name.slice(colon + 1))) return null;
      name = name.slice(0, colon);
    }
  }
  return VARNAME.test(name) ? name : null;
}

/** The variable names of a valid template, in order of first use; null when the template is not RFC 6570. */
export function templateVariables(template: string): string[] | null {
  const names: string[] = [];
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if (c === '{') {
      const close = template.indexOf('}', i + 1);
      if (close < 0) return null;
      let body = template.slice(i + 1, close);
      if (body.length > 0 && OPERATORS.has(body[0]!)) body = body.slice(1);
      if (body === '') return null;
      for (const spec of body.split(',')) {
        const name = parseVarspec(spec);
        if (name === null) return null;
        if (!names.includes(name)) names.push(name);
      }
      i = close + 1;
    } else if (c === '%') {
      if (!/^%[0-9A-Fa-f]{2}/.test(template.slice(i, i + 3))) return null;
      i += 3;
    } else {
      if (isForbiddenLiteral(c.charCodeAt(0))) return null;
      i += 1;
    }
  }
  return names;
}

/**
 * Whether every expansion of the template is an http or https URL: it must begin with the scheme
 * and "://" written out, so no variable, escape or other scheme (javascript:, data:) can take
 * that place. Clients expand templates themselves and follow the result.
 */
export function hasWebScheme(template: string): boolean {
  return /^https?:\/\//i.test(template);
}

/** RFC 6570 simple expansion of one value: everything but unreserved characters percent-encoded. */
function encodeUnreserved(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export type Expander = (values: Record<string, string | null>) => string;

/**
 * Expansion with the url-template package's results, prepared once per template: that package
 * parses the template again on every call, and a busy organization expands on every message.
 * Literal stretches are encoded once; plain {name} expressions (nearly every linkifier's) are
 * encoded directly; any other expression is left to the package.
 */
export function compileTemplate(template: string): Expander {
  const whole = parseTemplate(template);
  if (templateVariables(template) === null) return (values) => whole.expand(values);
  const pieces: Array<string | Expander> = [];
  for (const part of template.split(/(\{[^{}]+\})/)) {
    if (part === '') continue;
    const plainName = /^\{([A-Za-z0-9_]+)\}$/.exec(part)?.[1];
    if (plainName !== undefined) {
      pieces.push((values) => {
        const value = values[plainName];
        return value === null || value === undefined ? '' : encodeUnreserved(value);
      });
    } else if (part.startsWith('{')) {
      const expression = parseTemplate(part);
      pieces.push((values) => expression.expand(values));
    } else {
      pieces.push(parseTemplate(part).expand({}));
    }
  }
  return (values) => {
    let out = '';
    for (const piece of pieces) out += typeof piece === 'string' ? piece : piece(values);
    return out;
  };
}
