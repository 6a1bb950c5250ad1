/**
 * The fields of a platform's post options, read from the JSON schema the catalogue states for
 * `platforms.<platform>` of POST /v1/posts (`publishing.options`): a yes/no is a choice of yes
 * or no (and, when the option may be left out, of leaving it to the platform's default), a choice
 * among strings a list, a string a text input, a whole number a number input, a list of
 * strings a list of inputs (a list of media ids, `media_ids`, files uploaded for it), an object
 * a group of its own fields, and a list of objects a
 * group repeated, each labelled by its `title`, with its `description` as the hint. The
 * platform's own text (`text`, which every platform takes instead of the post's) is a field
 * of its own. What the form holds becomes the options sent by `optionsToSend`.
 */

/** The property of the options that holds the platform's own text. */
export const OWN_TEXT = 'text';
/** A property of the options (at any depth) that lists media of the library by id, as the post's `media_ids`. */
const MEDIA_IDS = 'media_ids';

interface FieldBase {
  name: string;
  label: string;
  hint: string | undefined;
  required: boolean;
}

/** A field for one option; `other` is a kind of value this form does not offer (the API takes it). */
export type OptionField = FieldBase &
  (
    | { kind: 'yesno' }
    | { kind: 'select'; choices: string[] }
    | { kind: 'text'; maxLength: number | undefined }
    | { kind: 'number'; minimum: number | undefined; maximum: number | undefined }
    | { kind: 'list'; itemMaxLength: number | undefined; minItems: number; maxItems: number | undefined }
    | { kind: 'media'; maxItems: number | undefined }
    | { kind: 'group'; fields: OptionField[] }
    | { kind: 'repeat'; itemLabel: string; fields: OptionField[]; maxItems: number | undefined }
    | { kind: 'other' }
  );

export type OwnTextField = Omit<FieldBase, 'required'> & { maxLength: number | undefined };

/** What the form holds for an option: strings as typed (a number's too), lists, groups. */
export type FormValue = string | boolean | FormValue[] | { [name: string]: FormValue };

/** An option's value as the API takes it. */
type SentValue = string | number | boolean | SentValue[] | { [name: string]: SentValue };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function propertiesOf(schema: Record<string, unknown>): Record<string, unknown> {
  return isRecord(schema.properties) ? schema.properties : {};
}

function labelOf(name: string, property: Record<string, unknown>): string {
  return typeof property.title === 'string' ? property.title : name;
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

function fieldOf(name: string, property: Record<string, unknown>, required: boolean): OptionField {
  const base: FieldBase = {
    name,
    label: labelOf(name, property),
    hint: typeof property.description === 'string' ? property.description : undefined,
    required,
  };
  const choices = property.enum;
  if (Array.isArray(choices) && choices.every((c) => typeof c === 'string'))
    return { ...base, kind: 'select', choices };
  // A yes/no is sent either way, so an option whose platform default is yes can be set to no.
  if (property.type === 'boolean') return { ...base, kind: 'yesno' };
  if (property.type === 'string') return { ...base, kind: 'text', maxLength: numberOf(property.maxLength) };
  if (property.type === 'integer') {
    return { ...base, kind: 'number', minimum: numberOf(property.minimum), maximum: numberOf(property.maximum) };
  }
  if (property.type === 'object') return { ...base, kind: 'group', fields: fieldsOf(property) };
  const items = property.items;
  if (property.type === 'array' && isRecord(items)) {
    const maxItems = numberOf(property.maxItems);
    // A list of the media library's ids (an X thread post's own media): files uploaded for it.
    if (name === MEDIA_IDS && items.type === 'string') return { ...base, kind: 'media', maxItems };
    if (items.type === 'string' && items.enum === undefined) {
      return {
        ...base,
        kind: 'list',
        itemMaxLength: numberOf(items.maxLength),
        minItems: numberOf(property.minItems) ?? 0,
        maxItems,
      };
    }
    if (items.type === 'object') {
      const fields = fieldsOf(items);
      // A list of objects holding a field this form does not offer is left to the API whole.
      if (fields.every((f) => f.kind !== 'other')) {
        return { ...base, kind: 'repeat', itemLabel: labelOf(name, items), fields, maxItems };
      }
    }
  }
  return { ...base, kind: 'other' };
}

function fieldsOf(schema: Record<string, unknown>, alsoRequired: readonly string[] = []): OptionField[] {
  const required = [...(Array.isArray(schema.required) ? schema.required : []), ...alsoRequired];
  return Object.entries(propertiesOf(schema)).flatMap(([name, property]) =>
    isRecord(property) ? [fieldOf(name, property, required.includes(name))] : [],
  );
}

/**
 * The options' fields, in the schema's order, but the platform's own text; `requiredOptions`
 * (the catalogue's `required_options`) are those every post there must set.
 */
export function optionFields(schema: Record<string, unknown>, requiredOptions: readonly string[] = []): OptionField[] {
  return fieldsOf(schema, requiredOptions).filter((f) => f.name !== OWN_TEXT);
}

/** The platform's own text field; null when its options take none. */
export function ownTextField(schema: Record<string, unknown>): OwnTextField | null {
  const property = propertiesOf(schema)[OWN_TEXT];
  if (!isRecord(property)) return null;
  const { name, label, hint } = fieldOf(OWN_TEXT, property, false);
  return { name, label, hint, maxLength: numberOf(property.maxLength) };
}

/**
 * What a field's value is sent as; undefined when it is left empty, so an option nobody filled
 * is not sent. An empty choice of a list is dropped (the list's problems are the list's), but an
 * empty item of a repeated group is sent as `{}`, so the API's problem with it names its place.
 */
function sentValue(field: OptionField, value: FormValue | undefined): SentValue | undefined {
  if (value === undefined) return undefined;
  switch (field.kind) {
    case 'yesno':
      return typeof value === 'boolean' ? value : undefined;
    case 'select':
    case 'text':
      return typeof value === 'string' && value !== '' ? value : undefined;
    case 'number':
      // The API names a value that is not a whole number; the field only lets numbers through.
      return typeof value === 'string' && value.trim() !== '' ? Number(value) : undefined;
    case 'media':
    case 'list': {
      const items = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
      return items.length > 0 ? items : undefined;
    }
    case 'group':
      return isRecord(value) ? groupValue(field.fields, value) : undefined;
    case 'repeat': {
      const items = Array.isArray(value)
        ? value.map((v) => (isRecord(v) ? groupValue(field.fields, v) : undefined))
        : [];
      return items.some((i) => i !== undefined) ? items.map((i) => i ?? {}) : undefined;
    }
    case 'other':
      return undefined;
  }
}

function groupValue(fields: OptionField[], values: Record<string, FormValue>): SentValue | undefined {
  const sent = Object.fromEntries(
    fields.flatMap((f) => {
      const v = sentValue(f, values[f.name]);
      return v === undefined ? [] : [[f.name, v]];
    }),
  );
  return Object.keys(sent).length > 0 ? sent : undefined;
}

/** The options to send for one platform, from what its form holds; undefined when none is set. */
export function optionsToSend(
  schema: Record<string, unknown>,
  values: Record<string, FormValue>,
  requiredOptions: readonly string[],
): Record<string, SentValue> | undefined {
  const own = ownTextField(schema);
  const ownText = values[OWN_TEXT];
  const fields = optionFields(schema, requiredOptions);
  const sent = {
    ...(own && typeof ownText === 'string' && ownText !== '' ? { [OWN_TEXT]: ownText } : {}),
    ...((groupValue(fields, values) ?? {}) as Record<string, SentValue>),
  };
  return Object.keys(sent).length > 0 ? sent : undefined;
}
