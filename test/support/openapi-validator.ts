import Ajv2020 from 'ajv/dist/2020';
import * as z from '../../shared/zod';

/**
 * Instances checked against the served document's own schemas (OpenAPI 3.1 writes JSON Schema
 * 2020-12) with ajv, strict: a keyword or format ajv does not know fails the compile, so the
 * check can never pass by ignoring part of a schema. OpenAPI's annotations (`example`,
 * `discriminator`) carry nothing to check; the formats are checked as the service writes them.
 */
export function documentValidator(document: { components: unknown; webhooks?: unknown }) {
  const ajv = new Ajv2020({ allErrors: true });
  ajv.addVocabulary(['example', 'discriminator', 'components', 'webhooks']);
  ajv.addFormat('date-time', (value: string) => z.iso.datetime({ offset: true }).safeParse(value).success);
  ajv.addFormat('uri', (value: string) => URL.canParse(value));
  ajv.addFormat('email', (value: string) => z.email().safeParse(value).success);
  ajv.addSchema({ $id: 'openapi.json', components: document.components, webhooks: document.webhooks });
  return {
    /** What is wrong with `value` against the schema at `pointer` in the document (`#/components/schemas/Event`): nothing when it conforms. */
    problems(pointer: string, value: unknown): string[] {
      const validate = ajv.getSchema(`openapi.json${pointer}`);
      if (!validate) return [`${pointer} is not in the document`];
      return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
    },
  };
}
