/**
 * The files of a generated project from their templates (`cli/templates/project/`, embedded in
 * `embedded.ts`): a template's path is the path it is written at, and `$token$` in its path and
 * contents is replaced by the value of that token (`$name$` a context's name, `$camel$` its
 * camelCase, …). A token without a value is an error: nothing is written half-filled.
 *
 * @module
 */
import type { FileWrite } from "../files/file_plan.ts";
import { embeddedTemplates } from "./embedded.ts";

/** The values of the `$token$`s of templates, by token name. */
export type TemplateTokens = Readonly<Record<string, string>>;

/** `text` (a template's path or contents) with each `$token$` replaced by its value. */
export function fillTokens(text: string, tokens: TemplateTokens, template: string): string {
  return text.replace(/\$([A-Za-z]+)\$/g, (token, name: string) => {
    const value = tokens[name];
    if (value === undefined) {
      throw new Error(`The template '${template}' holds ${token}, which has no value`);
    }
    return value;
  });
}

/** The contents of the template at `path` (from `cli/templates/project/`), its tokens filled. */
export function projectTemplate(path: string, tokens: TemplateTokens = {}): string {
  const text = embeddedTemplates[path];
  if (text === undefined) throw new Error(`No template '${path}' in cli/templates/project/`);
  return fillTokens(text, tokens, path);
}

/** The file written from the template at `path`, at that path, its tokens filled in both. */
export function templateFile(path: string, tokens: TemplateTokens = {}): FileWrite {
  return { path: fillTokens(path, tokens, path), contents: projectTemplate(path, tokens) };
}

/**
 * The file at `path` from the template of `variant`: `path` itself for the default variant,
 * `<stem>.<variant>.ts` beside it otherwise (`job-store.redis.ts` for the redis queue).
 */
export function variantFile(path: string, variant: string, byDefault: string): FileWrite {
  const template = variant === byDefault ? path : path.replace(/(\.[a-z]+)$/, `.${variant}$1`);
  return { path, contents: projectTemplate(template) };
}
