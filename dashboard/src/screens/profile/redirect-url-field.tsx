import type { RedirectOrigin } from '../../resources.ts';
import { PATHS } from '../../session.ts';
import { Field } from '../../ui.tsx';

/**
 * Where a link sends the client afterwards: a URL under one of the owner's registered origins,
 * which the hint lists and the field offers (a profile key cannot read them: it is told so).
 */
export function RedirectUrlField({
  origins,
  isOwner,
  error,
  value,
  onValue,
  example,
}: {
  origins: readonly RedirectOrigin[];
  isOwner: boolean;
  error: string | undefined;
  value: string;
  onValue: (value: string) => void;
  /** The path of the placeholder URL: what the client comes back from. */
  example: string;
}) {
  return (
    <Field
      label="Redirect URL"
      hint={
        origins.length > 0 ? (
          <>
            Where the client is sent afterwards. It must be under a registered origin:{' '}
            {origins.map((o, i) => (
              <span key={o.id}>
                {i > 0 ? ', ' : ''}
                <code>{o.origin}</code>
              </span>
            ))}
            .
          </>
        ) : isOwner ? (
          <>
            No redirect origin is registered yet: add one in <a href={PATHS.connectSettings}>Connect settings</a>.
          </>
        ) : (
          'Where the client is sent afterwards; it must be under an origin the owner registered.'
        )
      }
      error={error}
    >
      {({ id, describedBy, invalid }) => (
        <>
          <input
            id={id}
            type="url"
            required
            list={`${id}-origins`}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            placeholder={origins[0] ? `${origins[0].origin}/${example}` : `https://app.example.com/${example}`}
            value={value}
            onInput={(e) => onValue(e.currentTarget.value)}
          />
          <datalist id={`${id}-origins`}>
            {origins.map((o) => (
              <option key={o.id} value={`${o.origin}/`} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}
