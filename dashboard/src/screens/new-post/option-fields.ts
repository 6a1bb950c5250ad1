/**
 * The fields of a platform's post options, read from the JSON schema the catalogue states for
 * `platforms.<platform>` of POST /v1/posts (`publishing.options`): a yes/no is a box, a choice
 * among strings a list, a string a text input, each labelled by its `title`, with its
 * `description` as the hint. The platform's own text (`text`, which every platform takes
 * instead of the post's) is a field of its own.
 */

/** The property of the options that holds the platform's own text. */
export const OWN_TEXT = 'text';

interface FieldBase {
  name: string;
  label: string;
  hint: string | undefined;
}

/** A field for one option; `other` is a kind of value this form does not offer (the API takes it). */
export type OptionField = FieldBase &
  (
    | { kind: 'check' }
    | { kind: 'select'; choices: string[]; required: boolean }
    | { kind: 'text'; maxLength: number | undefined; required: boolean }
    | { kind: 'other' }
  );

export type OwnTextField = FieldBase & { maxLength: number | undefined };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function propertiesOf(schema: Record<string, unknown>): Record<string, unknown> {
  return isRecord(schema.properties) ? schema.properties : {};
}

function fieldBase(name: string, property: Record<string, unknown>): FieldBase {
  return {
    name,
    label: typeof property.title === 'string' ? property.title : name,
    hint: typeof property.description === 'string' ? property.description : undefined,
  };
}

function maxLengthOf(property: Record<string, unknown>): number | undefined {
  return typeof property.maxLength === 'number' ? property.maxLength : undefined;
}

/** The options' fields, in the schema's order, but the platform's own text. */
export function optionFields(schema: Record<string, unknown>): OptionField[] {
  const required = Array.isArray(schema.required) ? schema.required : [];
  return Object.entries(propertiesOf(schema)).flatMap(([name, property]): OptionField[] => {
    if (name === OWN_TEXT || !isRecord(property)) return [];
    const base = fieldBase(name, property);
    const isRequired = required.includes(name);
    const choices = property.enum;
    if (Array.isArray(choices) && choices.every((c) => typeof c === 'string')) {
      return [{ ...base, kind: 'select', choices, required: isRequired }];
    }
    if (property.type === 'boolean') return [{ ...base, kind: 'check' }];
    if (property.type === 'string') {
      return [{ ...base, kind: 'text', maxLength: maxLengthOf(property), required: isRequired }];
    }
    return [{ ...base, kind: 'other' }];
  });
}

/** The platform's own text field; null when its options take none. */
export function ownTextField(schema: Record<string, unknown>): OwnTextField | null {
  const property = propertiesOf(schema)[OWN_TEXT];
  if (!isRecord(property)) return null;
  return { ...fieldBase(OWN_TEXT, property), maxLength: maxLengthOf(property) };
}
